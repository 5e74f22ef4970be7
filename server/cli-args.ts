/** Argument parsing and output channels shared by every `hearth` subcommand. */
import { usageError } from './errors/app-error.js';

/** Output channels, injectable for tests. */
export interface Io {
  out(text: string): void;
  err(text: string): void;
}

/** stdout and stderr. */
export const processIo: Io = {
  out: (t) => process.stdout.write(t),
  err: (t) => process.stderr.write(t),
};

/** Positional words and `--flag value` pairs. */
export interface Parsed {
  readonly words: string[];
  readonly flags: Map<string, string | true>;
  /** Every value of each flag given with a value, in order (a repeated flag such as `--header` keeps them all; `flags` has the last). */
  readonly repeated?: ReadonlyMap<string, readonly string[]>;
}

/** Flags that take no value. */
const BOOLEAN_FLAGS = new Set(['default', 'force', 'help', 'accept-schema-changes', 'allow-destructive']);

/** Splits argv into words and flags; `--flag=value` and `--flag value` both work. */
export function parseArgs(argv: readonly string[]): Parsed {
  const words: string[] = [];
  const flags = new Map<string, string | true>();
  const repeated = new Map<string, string[]>();
  const set = (name: string, value: string): void => {
    flags.set(name, value);
    repeated.set(name, [...(repeated.get(name) ?? []), value]);
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '-h') {
      flags.set('help', true);
    } else if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      const name = eq === -1 ? arg.slice(2) : arg.slice(2, eq);
      if (BOOLEAN_FLAGS.has(name)) {
        if (eq !== -1) throw usageError(`--${name} takes no value`);
        flags.set(name, true);
      } else if (eq !== -1) {
        set(name, arg.slice(eq + 1));
      } else {
        const value = argv[i + 1];
        if (value === undefined || value.startsWith('--')) throw usageError(`--${name} needs a value`);
        set(name, value);
        i++;
      }
    } else {
      words.push(arg);
    }
  }
  return { words, flags, repeated };
}

/** Usage error on any flag outside `allowed`. */
export function only(parsed: Parsed, allowed: readonly string[]): void {
  for (const name of parsed.flags.keys()) {
    if (!allowed.includes(name)) throw usageError(`unknown option --${name}`);
  }
}

/** A flag's value, undefined when absent. */
export function text(parsed: Parsed, name: string): string | undefined {
  const v = parsed.flags.get(name);
  return typeof v === 'string' ? v : undefined;
}

/** A flag's value, or a usage error naming it. */
export function required(parsed: Parsed, name: string): string {
  const v = text(parsed, name);
  if (v === undefined || v.trim() === '') throw usageError(`--${name} is required`);
  return v;
}

/** A comma-separated flag value as a list. */
export const list = (value: string) => value.split(',').map((a) => a.trim()).filter(Boolean);

/**
 * SIGINT/SIGTERM as a promise, listened for from the call on: `stopped` settles at the first
 * signal; `release()` removes the handlers (and settles it too), for a command that ends itself.
 */
export function stopSignal(): { readonly stopped: Promise<void>; release(): void } {
  let requestStop = (): void => {};
  const stopped = new Promise<void>((resolve) => (requestStop = resolve));
  const release = (): void => {
    process.off('SIGINT', release);
    process.off('SIGTERM', release);
    requestStop();
  };
  process.on('SIGINT', release);
  process.on('SIGTERM', release);
  return { stopped, release };
}
