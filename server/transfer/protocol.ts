/** Shared shapes of Strapi's transfer protocol (see test/fixtures/strapi/export/TRANSFER.md). */

import { AppError, type ErrorName } from '../errors/app-error.js';

/** Each code the transfer protocol answers an error with (the error's name in Strapi; `Error` for a plain one), and its AppError name. */
const CODES = [
  ['Error', 'TransferError'],
  ['ProviderTransferError', 'ProviderTransferError'],
  ['ProviderValidationError', 'ProviderValidationError'],
] as const satisfies readonly (readonly [string, ErrorName])[];
/** A code of the transfer protocol's errors. */
export type TransferCode = (typeof CODES)[number][0];

const NAME_OF = new Map<TransferCode, ErrorName>(CODES);
const CODE_OF = new Map<ErrorName, TransferCode>(CODES.map(([code, name]) => [name, code]));

/**
 * An error the transfer client is told as `{ code, message, details }`: an AppError named after its
 * code. Not safe to show an HTTP client (one that escapes into an HTTP request is the generic 500).
 */
export const transferError = (code: TransferCode, message: string, details: Record<string, unknown> = {}): AppError =>
  new AppError(NAME_OF.get(code) ?? 'TransferError', message, details, { safe: false });

/** The protocol's `{ code, message, details }` for a transfer error; null for any other error. */
export function transferAnswer(err: unknown): { code: TransferCode; message: string; details: unknown } | null {
  const code = err instanceof AppError ? CODE_OF.get(err.name) : undefined;
  return code !== undefined && err instanceof AppError ? { code, message: err.message, details: err.details } : null;
}

/** What a provider may send besides replies: diagnostics, and stream batches the client acknowledges. */
export interface Channel {
  diagnostic(message: string, origin?: string): Promise<void>;
  /** Sends `{ uuid, data }` and resolves once the client answers `{ uuid }`. */
  confirm(data: unknown): Promise<void>;
}

/** The pull source or push destination behind one initialised transfer. */
export interface Provider {
  action(action: string): Promise<unknown>;
  step(action: string, step: string, data: unknown): Promise<unknown>;
  /** Frees what the transfer holds (staging folders); a push not yet applied is dropped. */
  dispose(): Promise<void>;
}

/** The stages of a transfer, in the order the client runs them. */
export const STAGES = ['entities', 'assets', 'links', 'configuration'] as const;
/** One stage. */
export type TransferStage = (typeof STAGES)[number];

export const isStage = (value: string): value is TransferStage => (STAGES as readonly string[]).includes(value);

export { isRecord } from '../errors/is-record.js';

/** `getMetadata`'s answer: the Strapi version whose protocol and layout Hearth follows. */
export const metadata = (now: Date) => ({ createdAt: now.toISOString(), strapi: { version: '5.54.0' } });

/** A step's reply followed by work that must start only once the reply is sent (a pull stream). */
export class ThenRun {
  constructor(
    readonly reply: unknown,
    readonly run: () => Promise<void>,
  ) {}
}
