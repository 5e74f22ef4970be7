import { AppError } from '../errors/app-error.js';
import type { LiveImportResult } from './archive-import.js';

/**
 * The one live Strapi import a server runs at a time, and what the admin screen polls while it
 * runs: the stage reached, the progress lines the CLI would print, then the result or the error.
 */

/** The stages a live import goes through, in order (named by the first word of its progress lines). */
export const IMPORT_STAGES = ['reading', 'schemas', 'entities', 'links', 'locales', 'assets', 'applying'] as const;
export type ImportStage = (typeof IMPORT_STAGES)[number];

/** Progress lines kept for the screen (the last ones): an archive's schema sync can log many. */
const MAX_STEPS = 200;

/** What `GET /admin/api/strapi-archive/import` answers. */
export interface ImportStatus {
  readonly state: 'idle' | 'running' | 'done' | 'failed';
  /** The uploaded archive's id. */
  readonly id: string | null;
  readonly fileName: string | null;
  readonly stage: ImportStage | null;
  readonly steps: readonly string[];
  readonly startedAt: string | null;
  readonly finishedAt: string | null;
  readonly result: LiveImportResult | null;
  readonly error: { readonly status: number; readonly name: string; readonly message: string } | null;
}

const IDLE: ImportStatus = { state: 'idle', id: null, fileName: null, stage: null, steps: [], startedAt: null, finishedAt: null, result: null, error: null };

/** The running import's handle: progress lines, then its end. */
export interface ImportRun {
  progress(message: string): void;
  succeed(result: LiveImportResult): void;
  fail(error: unknown): void;
}

/** The server's import slot. */
export interface ImportTracker {
  status(): ImportStatus;
  /** Takes the slot for an import of `id`, or throws a 409 while another runs. */
  start(id: string, fileName: string): ImportRun;
}

const stageOf = (message: string): ImportStage | null => IMPORT_STAGES.find((s) => message.startsWith(`${s}:`)) ?? null;

export function createImportTracker(now: () => Date): ImportTracker {
  let current: ImportStatus = IDLE;
  return {
    status: () => current,
    start(id, fileName) {
      if (current.state === 'running') throw new AppError('ConflictError', `A Strapi import is already running (${current.fileName ?? 'an archive'}); wait for it to end`, { id: current.id });
      current = { ...IDLE, state: 'running', id, fileName, startedAt: now().toISOString() };
      const update = (change: Partial<ImportStatus>) => {
        if (current.id === id) current = { ...current, ...change };
      };
      return {
        progress(message) {
          update({ stage: stageOf(message) ?? current.stage, steps: [...current.steps, message].slice(-MAX_STEPS) });
        },
        succeed(result) {
          update({ state: 'done', result, finishedAt: now().toISOString() });
        },
        fail(error) {
          // Only an error safe to show reaches the admin as it is; the rest (a schema Hearth cannot use, a crash) is the generic failure.
          const known = error instanceof AppError && error.safe ? error : null;
          update({
            state: 'failed',
            finishedAt: now().toISOString(),
            error: { status: known?.status ?? 500, name: known?.name ?? 'ApplicationError', message: known?.message ?? 'The import failed; nothing was imported' },
          });
        },
      };
    },
  };
}
