import type { Registry } from '../schema/registry.js';
import { schemaLines } from '../strapi-archive/schemas-out.js';
import { isRecord } from './protocol.js';

/** `getSchemas`' answer: every schema Strapi would hold for this project, keyed by uid (as `strapi export` writes them). */
export function schemasByUid(registry: Registry): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const line of schemaLines(registry)) if (isRecord(line) && typeof line.uid === 'string') out[line.uid] = line;
  return out;
}
