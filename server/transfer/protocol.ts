/** Shared shapes of Strapi's transfer protocol (see test/fixtures/strapi/export/TRANSFER.md). */

/** An error answered to the client as `{ code, message, details }` (code: the error's name in Strapi). */
export class TransferError extends Error {
  constructor(
    readonly code: 'Error' | 'ProviderTransferError' | 'ProviderValidationError',
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }
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
