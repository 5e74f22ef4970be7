/**
 * Whether a value is a plain JSON-like object (not null, not an array): the one guard the server
 * reads `unknown` input with. It lives in errors/ because every server folder may import errors/
 * (a leaf that imports nothing), so sharing it creates no cycle between folders.
 */
export const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
