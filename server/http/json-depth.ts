import { validationError } from '../errors/app-error.js';
import { MAX_JSON_DEPTH } from '../limits.js';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;

/**
 * Whether JSON text nests arrays and objects deeper than `max`, read from the raw text without
 * parsing it (brackets inside strings, escaped quotes included, do not count). It stops at the
 * first level past `max`; malformed text is left to JSON.parse to report.
 */
export function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) {
      inString = true;
    } else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      if (++depth > max) return true;
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) {
      depth--;
    }
  }
  return false;
}

/**
 * Checked before JSON.parse: a value nested past MAX_JSON_DEPTH is a 400 ValidationError naming
 * `what`, never parsed (code that walks a parsed value recursively would overflow the stack).
 */
export function assertJsonDepth(text: string, what: string): void {
  if (nestsDeeperThan(text, MAX_JSON_DEPTH)) {
    throw validationError(`${what} is nested too deeply: at most ${MAX_JSON_DEPTH} levels of arrays and objects`);
  }
}
