import { isRecord } from '../../api/decode';
import { ApiError } from '../../api/errors';
import type { Attribute, Schema } from '../../api/schema';
import type { ComponentLookup, FormValues } from './form-values';
import { humanize } from './list-columns';
import { regexWords, UID_PATTERN } from './validation';

/** A field's attribute and name found by its path through components and dynamic-zone entries. */
export interface FieldAt {
  readonly name: string;
  readonly attribute: Attribute;
}

const rowAt = (value: unknown, index: string): FormValues | null => {
  if (!Array.isArray(value)) return null;
  const row: unknown = value[Number(index)];
  return isRecord(row) && isRecord(row.values) ? row.values : null;
};

/** The attribute a dotted error path names (`blocks.0.text` is `text` of the zone's first entry's component). */
export function attributeAt(args: { schema: Schema | undefined; values: FormValues; lookup: ComponentLookup; path: readonly string[] }): FieldAt | null {
  let schema = args.schema;
  let values: FormValues | null = args.values;
  for (let i = 0; i < args.path.length; i++) {
    const name = args.path[i] ?? '';
    const attribute = schema?.attributes[name];
    if (!attribute) return null;
    if (i === args.path.length - 1) return { name, attribute };
    const value: unknown = values?.[name];
    if (attribute.type === 'component') {
      schema = args.lookup(attribute.component ?? '');
      if (attribute.repeatable) {
        i += 1;
        if (i === args.path.length - 1) return { name, attribute };
        values = rowAt(value, args.path[i] ?? '');
      } else values = isRecord(value) ? value : null;
    } else if (attribute.type === 'dynamiczone') {
      i += 1;
      if (i === args.path.length - 1) return { name, attribute };
      const row: unknown = Array.isArray(value) ? value[Number(args.path[i])] : undefined;
      schema = isRecord(row) && typeof row.component === 'string' ? args.lookup(row.component) : undefined;
      values = rowAt(value, args.path[i] ?? '');
    } else return { name, attribute };
  }
  return null;
}

const plural = (n: string, one: string, many: string) => `${n} ${n === '1' ? one : many}`;

/** Yup's (and Strapi's) wording after the path, turned into what an editor reads next to the field. */
const RULES: readonly (readonly [RegExp, (m: RegExpExecArray, field: FieldAt | null, label: string) => string])[] = [
  [/^must be defined\.?$|^cannot be null\.?$|^is a required field$|^cannot be empty$/, (_m, _f, label) => `${label} is required`],
  [/^must be a `\w+` type, but the final value was: `null`/, (_m, _f, label) => `${label} is required`],
  [/^must be a `(number|integer)` type/, () => 'Must be a number'],
  [/^must be a `string` type/, () => 'Must be text'],
  [/^must be a `boolean` type/, () => 'Must be on or off'],
  [/^must be a `(date|datetime)` type/, () => 'Must be a date'],
  [/^must be at least (\d+) characters?$/, (m) => `At least ${plural(m[1] ?? '', 'character', 'characters')}`],
  [/^must be at most (\d+) characters?$/, (m) => `At most ${plural(m[1] ?? '', 'character', 'characters')}`],
  [/^must be greater than or equal to (\S+)$/, (m) => `At least ${m[1] ?? ''}`],
  [/^must be less than or equal to (\S+)$/, (m) => `At most ${m[1] ?? ''}`],
  [/^must be greater than (\S+)$/, (m) => `More than ${m[1] ?? ''}`],
  [/^must be less than (\S+)$/, (m) => `Less than ${m[1] ?? ''}`],
  [/^must be an integer$|^must be a valid integer$/, () => 'Must be a whole number'],
  [/^must be a valid email$/, () => 'Must be a valid email'],
  [/^must have at least (\d+) items?$|^field must have at least (\d+) items?$/, (m) => `At least ${plural(m[1] ?? m[2] ?? '', 'entry', 'entries')}`],
  [/^must have less than or equal to (\d+) items$|^field must have less than or equal to (\d+) items$/, (m) => `At most ${plural(m[1] ?? m[2] ?? '', 'entry', 'entries')}`],
  [/^must be one of the following values: (.*)$/, (m) => `Must be one of: ${m[1] ?? ''}`],
  [
    /^must match the following: "\/(.*)\/"$/,
    (m, field) => (m[1] === UID_PATTERN ? regexWords({ type: 'uid' }) : regexWords({ type: field?.attribute.type ?? 'string', regex: m[1] ?? '' })),
  ],
  [/^This attribute must be unique$/, () => 'Already used by another entry: must be unique'],
];

/** An editor's sentence for one server message about a field; the server's own text when no rule knows it. */
export function humanMessage(args: { message: string; path: readonly string[]; field: FieldAt | null }): string {
  const { message, field } = args;
  const label = humanize(field?.name ?? args.path[args.path.length - 1] ?? '');
  // Yup starts with the path (`seo.metaTitle`, `blocks[0].text`); Strapi's own messages may not.
  const rest = /^\S+ ((?:must|cannot|is a required|field must) .*)$/.exec(message)?.[1] ?? message;
  for (const [pattern, words] of RULES) {
    const match = pattern.exec(rest);
    if (match) return words(match, field, label);
  }
  return message;
}

/** Field errors of a refused save, in the editor's words, and the server's own text for each. */
export interface MappedErrors {
  readonly errors: Map<string, string>;
  readonly server: Map<string, string>;
}

/** Maps a ValidationError's `details.errors[].path` onto the form's fields (components and zones included). */
export function serverFieldErrors(args: { error: unknown; schema: Schema | undefined; values: FormValues; lookup: ComponentLookup }): MappedErrors {
  const errors = new Map<string, string>();
  const server = new Map<string, string>();
  if (!(args.error instanceof ApiError)) return { errors, server };
  for (const e of args.error.fieldErrors()) {
    const key = e.path.join('.');
    if (errors.has(key)) continue;
    const field = attributeAt({ schema: args.schema, values: args.values, lookup: args.lookup, path: e.path });
    errors.set(key, humanMessage({ message: e.message, path: e.path, field }));
    server.set(key, e.message);
  }
  return { errors, server };
}
