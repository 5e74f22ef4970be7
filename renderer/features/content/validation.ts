import { isRecord } from '../../api/decode';
import type { Attribute, Schema } from '../../api/schema';
import type { ComponentLookup, FormValues, Row } from './form-values';
import { humanize } from './list-columns';

/** Strapi's pattern for uid values, and the sentence an editor reads for it. */
export const UID_PATTERN = '^[A-Za-z0-9-_.~]*$';
const UID_WORDS = 'Only letters, digits and - _ . ~';
// The browser's own email check (HTML's valid e-mail address), close to yup's.
const EMAIL = /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)+$/;
const TEXT_TYPES = new Set(['string', 'text', 'richtext', 'email', 'uid', 'password']);
const NUMBER_TYPES = new Set(['integer', 'float', 'decimal', 'biginteger']);

/** Field messages found in the browser, before anything is sent: thrown by the save and shown at the fields. */
export class FormErrors extends Error {
  constructor(readonly errors: ReadonlyMap<string, string>) {
    super('Some fields need attention.');
  }
}

/** What a check needs to know: `draft` saves skip required, minLength and component minimums, as Strapi's do. */
export interface ValidateArgs {
  readonly schema: Schema | undefined;
  readonly values: FormValues;
  readonly lookup: ComponentLookup;
  readonly draft: boolean;
}

const rowsOf = (value: unknown): Row[] => (Array.isArray(value) ? value.filter((r): r is Row => isRecord(r) && isRecord(r.values)) : []);

function isEmpty(attribute: Attribute, value: unknown): boolean {
  if (value === null || value === undefined || value === '') return true;
  if (Array.isArray(value)) return value.length === 0;
  return attribute.type === 'json' && typeof value === 'string' && value.trim() === '';
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** The sentence for a regex an attribute declares (uid fields have Strapi's own). */
export function regexWords(attribute: Attribute): string {
  if (attribute.type === 'uid' && attribute.regex === undefined) return UID_WORDS;
  return `Must match the pattern ${attribute.regex ?? ''}`;
}

function textProblem(attribute: Attribute, text: string, draft: boolean): string | null {
  const length = [...text].length;
  if (attribute.minLength !== undefined && !draft && length < attribute.minLength) return `At least ${plural(attribute.minLength, 'character', 'characters')}`;
  if (attribute.maxLength !== undefined && length > attribute.maxLength) return `At most ${plural(attribute.maxLength, 'character', 'characters')}`;
  if (attribute.type === 'email' && !EMAIL.test(text)) return 'Must be a valid email';
  if (attribute.type === 'uid' && !new RegExp(UID_PATTERN).test(text)) return UID_WORDS;
  if (attribute.regex !== undefined) {
    try {
      if (!new RegExp(attribute.regex).test(text)) return regexWords(attribute);
    } catch {
      // A pattern the browser cannot compile is left to the server.
    }
  }
  return null;
}

function numberProblem(attribute: Attribute, value: unknown): string | null {
  const n = Number(value);
  if (!Number.isFinite(n)) return attribute.type === 'integer' || attribute.type === 'biginteger' ? 'Must be a whole number' : 'Must be a number';
  if (attribute.type === 'integer' && !Number.isInteger(n)) return 'Must be a whole number';
  if (attribute.min !== undefined && n < attribute.min) return `At least ${attribute.min}`;
  if (attribute.max !== undefined && n > attribute.max) return `At most ${attribute.max}`;
  return null;
}

function countProblem(attribute: Attribute, count: number, draft: boolean): string | null {
  if (attribute.min !== undefined && !draft && (attribute.required === true || count > 0) && count < attribute.min) return `At least ${plural(attribute.min, 'entry', 'entries')}`;
  if (attribute.max !== undefined && count > attribute.max) return `At most ${plural(attribute.max, 'entry', 'entries')}`;
  return null;
}

function check(args: ValidateArgs, name: string, attribute: Attribute, value: unknown, path: readonly string[], out: Map<string, string>): void {
  const key = path.join('.');
  // Not loaded (nested relations and media below one level): the stored value stays as it is.
  if (value === undefined) return;
  if (isEmpty(attribute, value)) {
    if (attribute.required && !args.draft && attribute.type !== 'password' && attribute.type !== 'relation' && attribute.type !== 'media') out.set(key, `${humanize(name)} is required`);
    return;
  }
  let problem: string | null = null;
  if (TEXT_TYPES.has(attribute.type) && typeof value === 'string') problem = textProblem(attribute, value, args.draft);
  else if (NUMBER_TYPES.has(attribute.type)) problem = numberProblem(attribute, value);
  else if (attribute.type === 'component' && attribute.repeatable) {
    const rows = rowsOf(value);
    problem = countProblem(attribute, rows.length, args.draft);
    rows.forEach((row, i) => walk({ ...args, schema: args.lookup(attribute.component ?? ''), values: row.values }, [...path, String(i)], out));
  } else if (attribute.type === 'component' && isRecord(value)) {
    walk({ ...args, schema: args.lookup(attribute.component ?? ''), values: value }, path, out);
  } else if (attribute.type === 'dynamiczone') {
    const rows = rowsOf(value);
    problem = countProblem(attribute, rows.length, args.draft);
    rows.forEach((row, i) => walk({ ...args, schema: args.lookup(row.component ?? ''), values: row.values }, [...path, String(i)], out));
  }
  if (problem !== null) out.set(key, problem);
}

function walk(args: ValidateArgs, path: readonly string[], out: Map<string, string>): void {
  for (const [name, attribute] of Object.entries(args.schema?.attributes ?? {})) check(args, name, attribute, args.values[name], [...path, name], out);
}

/**
 * Checks form values against their schema as Strapi's validator would (required, minLength, maxLength,
 * min, max, regex, email, uid pattern, component counts), inside components and dynamic zones too.
 * Uniqueness needs the database: the server answers it. Keys are dotted field paths (`seo.metaTitle`, `blocks.0.text`).
 */
export function validateForm(args: ValidateArgs): Map<string, string> {
  const out = new Map<string, string>();
  walk(args, [], out);
  return out;
}
