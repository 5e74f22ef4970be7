import type { Caller } from '../auth/caller.js';
import { AppError, validationError } from '../errors/app-error.js';
import { isRecord } from '../errors/is-record.js';
import { MCP_MAX_PAGE_SIZE, MCP_MAX_RESULT_BYTES } from '../limits.js';
import type { QueryEnv } from '../query/read-query.js';
import type { Registry } from '../schema/registry.js';
import type { Services } from '../services.js';

/** Which transport a caller came by: over stdio an upload may read a local path, over HTTP never. */
export type McpTransportKind = 'stdio' | 'http';

/** What one MCP server (one per caller) is built from. */
export interface McpContext {
  readonly services: Services;
  /** The caller behind this connection, resolved again for each request (a revoked token stops working at once). */
  readonly caller: () => Promise<Caller>;
  readonly transport: McpTransportKind;
  /** `--allow-destructive` / HEARTH_MCP_DESTRUCTIVE: `delete_document` is listed (to callers that may delete). */
  readonly destructive: boolean;
}

/** A tool's arguments, as the client sent them. */
export type Args = Record<string, unknown>;

/** What a tool answers: REST's JSON as structuredContent and as one text item. */
export interface ToolAnswer {
  [key: string]: unknown;
  content: { type: 'text'; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  _meta?: Record<string, unknown>;
}

/** An answer built from JSON text, refused when larger than MCP_MAX_RESULT_BYTES (a read: the caller may ask for less). */
export function answerText(text: string, meta?: Record<string, unknown>): ToolAnswer {
  if (Buffer.byteLength(text) > MCP_MAX_RESULT_BYTES) {
    throw validationError(`The answer is larger than ${MCP_MAX_RESULT_BYTES} bytes: ask for a smaller pageSize, fewer fields or less populate`);
  }
  return unbounded(text, meta);
}

/** A write's answer, whatever its size: the write is done, refusing its answer would only hide that. */
export const writeAnswer = (value: unknown): ToolAnswer => unbounded(JSON.stringify(value));

function unbounded(text: string, meta?: Record<string, unknown>): ToolAnswer {
  const parsed: unknown = JSON.parse(text);
  return {
    content: [{ type: 'text', text }],
    structuredContent: isRecord(parsed) ? parsed : { data: parsed },
    ...(meta ? { _meta: meta } : {}),
  };
}

/** An answer of a value (serialised once). */
export const answer = (value: unknown, meta?: Record<string, unknown>): ToolAnswer => answerText(JSON.stringify(value), meta);

/** A thrown value as an MCP tool error carrying Strapi's error body; anything not safe to show is logged and answered as a generic 500. */
export function errorAnswer(err: unknown, log: (message: string) => void): ToolAnswer {
  let failure: AppError;
  if (err instanceof AppError && err.safe) failure = err;
  else {
    log(`mcp: a tool call failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    failure = new AppError('InternalServerError', 'Internal Server Error');
  }
  const body = failure.toBody();
  return { content: [{ type: 'text', text: JSON.stringify(body) }], structuredContent: { ...body }, isError: true };
}

/** The content API's query environment for this caller, with pages capped at MCP_MAX_PAGE_SIZE. */
export function queryEnv(services: Services, registry: Registry, caller: Caller): QueryEnv {
  const { config } = services;
  const cap = config.maxLimit === null || config.maxLimit <= 0 ? MCP_MAX_PAGE_SIZE : Math.min(config.maxLimit, MCP_MAX_PAGE_SIZE);
  return {
    registry,
    limits: { defaultLimit: Math.min(config.defaultLimit, cap), maxLimit: cap },
    canRead: (uid) => caller.allows(`${uid}.find`),
  };
}

/** A string argument, or a 400 naming it. */
export function textArg(args: Args, name: string, required: true): string;
export function textArg(args: Args, name: string, required: false): string | undefined;
export function textArg(args: Args, name: string, required: boolean): string | undefined {
  const value = args[name];
  if (value === undefined || value === null) {
    if (required) throw validationError(`${name} is required`, { errors: [{ path: [name], message: `${name} is required`, name: 'ValidationError' }] });
    return undefined;
  }
  if (typeof value !== 'string') throw validationError(`${name} must be a string`, { errors: [{ path: [name], message: `${name} must be a string`, name: 'ValidationError' }] });
  return value;
}

/** Only the named arguments that were given (undefined left out), for the query string. */
export function pick(args: Args, names: readonly string[]): Args {
  const out: Args = {};
  for (const name of names) if (args[name] !== undefined) out[name] = args[name];
  return out;
}
