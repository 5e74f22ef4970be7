import { createHash } from 'node:crypto';
import {
  GraphQLBoolean, GraphQLID, GraphQLInputObjectType, GraphQLList, GraphQLNonNull, GraphQLObjectType, GraphQLString, type GraphQLEnumType, type GraphQLFieldConfigMap,
  type GraphQLFieldResolver,
} from 'graphql';
import { forbidden, invalidKey } from '../errors/app-error.js';
import { isRecord } from '../errors/is-record.js';
import { pluginsOf, type LocaleRow } from './plugin-deps.js';
import { windowOf, type GraphqlContext } from './resolve.js';
import { DateTimeScalar } from './scalars.js';

/**
 * `i18NLocale(documentId)`, `i18NLocales` and `i18NLocales_connection` (type `I18NLocale`), as
 * Strapi's plugin generates them for `plugin::i18n.locale`, under `plugin::i18n.locale.find` /
 * `.findOne`. Hearth's locales are its own table (`hearth_locales`, no documentId column): a
 * locale's documentId is derived from its id and code, so it is stable for the locale's life and
 * well formed (24 characters, a letter first). Locales are few: filters, sort and pagination run
 * on the list in memory, with REST's filter operators and its `Invalid key` for an unknown sort
 * key. Locales have no draft & publish: `status` is accepted and changes nothing, and `publishedAt`
 * is the creation time (Strapi publishes a type without draft & publish when it is created).
 */

type Args = Record<string, unknown>;
type Raw = Record<string, unknown>;
const UID = 'plugin::i18n.locale';
const FIELDS = ['documentId', 'name', 'code', 'createdAt', 'updatedAt', 'publishedAt'] as const;
const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** The documentId of a locale: 24 characters of [a-z0-9] from a hash of its id and code, the first a letter. */
export function localeDocumentId(locale: Pick<LocaleRow, 'id' | 'code'>): string {
  const bytes = createHash('sha256').update(`hearth-locale:${locale.id}:${locale.code}`).digest();
  const chars = [...bytes.subarray(0, 24)].map((b, i) => (i === 0 ? ALPHABET[b % 26] : ALPHABET[b % ALPHABET.length]));
  return chars.join('');
}

const entryOf = (l: LocaleRow): Raw => ({ documentId: localeDocumentId(l), name: l.name, code: l.code, createdAt: l.createdAt, updatedAt: l.updatedAt, publishedAt: l.createdAt });

/** What schema.ts lends: its pagination type, filter inputs and publication enums (each made once per schema). */
export interface LocaleQueryParts {
  readonly pagination: GraphQLObjectType;
  readonly paginationArg: GraphQLInputObjectType;
  readonly stringFilter: GraphQLInputObjectType;
  readonly dateTimeFilter: GraphQLInputObjectType;
  readonly idFilter: GraphQLInputObjectType;
  readonly publicationStatus: GraphQLEnumType;
  readonly publicationFilter: GraphQLEnumType;
}

const lower = (v: unknown) => String(v).toLowerCase();
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : [v]);

/** One scalar operator on one value, as REST's operators compare (text case-folded for the `i` ones). */
function holds(op: string, value: unknown, operand: unknown): boolean {
  const s = value === null || value === undefined ? null : String(value);
  switch (op) {
    case 'eq': return s === String(operand);
    case 'ne': return s !== String(operand);
    case 'eqi': return s !== null && lower(s) === lower(operand);
    case 'nei': return s === null || lower(s) !== lower(operand);
    case 'startsWith': return s !== null && s.startsWith(String(operand));
    case 'endsWith': return s !== null && s.endsWith(String(operand));
    case 'contains': return s !== null && s.includes(String(operand));
    case 'notContains': return s === null || !s.includes(String(operand));
    case 'containsi': return s !== null && lower(s).includes(lower(operand));
    case 'notContainsi': return s === null || !lower(s).includes(lower(operand));
    case 'gt': return s !== null && s > String(operand);
    case 'gte': return s !== null && s >= String(operand);
    case 'lt': return s !== null && s < String(operand);
    case 'lte': return s !== null && s <= String(operand);
    case 'null': return (s === null) === Boolean(operand);
    case 'notNull': return (s !== null) === Boolean(operand);
    case 'in': return list(operand).map(String).includes(s ?? '');
    case 'notIn': return !list(operand).map(String).includes(s ?? '');
    case 'between': {
      const [low, high] = list(operand).map(String);
      return s !== null && low !== undefined && high !== undefined && s >= low && s <= high;
    }
    default: return true;
  }
}

/** Whether an entry passes one field's operators (`{ eq: 'en', or: [...] }`). */
function fieldMatches(value: unknown, ops: Raw): boolean {
  return Object.entries(ops).every(([op, operand]) => {
    if (operand === undefined) return true;
    if (op === 'and') return list(operand).every((o) => !isRecord(o) || fieldMatches(value, o));
    if (op === 'or') return list(operand).some((o) => isRecord(o) && fieldMatches(value, o));
    if (op === 'not') return !isRecord(operand) || !fieldMatches(value, operand);
    return holds(op, value, operand);
  });
}

function matches(entry: Raw, filters: Raw): boolean {
  return Object.entries(filters).every(([key, f]) => {
    if (f === undefined || f === null) return true;
    if (key === 'and') return list(f).every((x) => !isRecord(x) || matches(entry, x));
    if (key === 'or') return list(f).some((x) => isRecord(x) && matches(entry, x));
    if (key === 'not') return !isRecord(f) || !matches(entry, f);
    return isRecord(f) ? fieldMatches(entry[key], f) : true;
  });
}

/** `sort: ["code:desc", "name"]`: REST's syntax; an unknown field is REST's `Invalid key`. */
function sortEntries(entries: Raw[], sort: unknown): Raw[] {
  const keys = (Array.isArray(sort) ? sort : typeof sort === 'string' ? [sort] : []).flatMap((s) => String(s).split(','));
  const orders = keys.map((k) => {
    const [field = '', direction = 'asc'] = k.trim().split(':');
    if (!(FIELDS as readonly string[]).includes(field)) throw invalidKey({ key: field, path: null, source: 'query', param: 'sort' });
    return { field, sign: direction.toLowerCase() === 'desc' ? -1 : 1 };
  });
  return [...entries].sort((a, b) => {
    for (const { field, sign } of orders) {
      const x = String(a[field] ?? '');
      const y = String(b[field] ?? '');
      if (x !== y) return x < y ? -sign : sign;
    }
    return 0;
  });
}

function authorize(ctx: GraphqlContext, action: 'find' | 'findOne'): void {
  if (!ctx.allows(`${UID}.${action}`)) throw forbidden();
}

export function localeQueries(parts: LocaleQueryParts): { fields: GraphQLFieldConfigMap<unknown, GraphqlContext>; type: GraphQLObjectType } {
  const dateTime = { type: parts.dateTimeFilter };
  const filters: GraphQLInputObjectType = new GraphQLInputObjectType({
    name: 'I18NLocaleFiltersInput',
    fields: () => ({
      documentId: { type: parts.idFilter }, name: { type: parts.stringFilter }, code: { type: parts.stringFilter },
      createdAt: dateTime, updatedAt: dateTime, publishedAt: dateTime,
      and: { type: new GraphQLList(filters) }, or: { type: new GraphQLList(filters) }, not: { type: filters },
    }),
  });
  const type = new GraphQLObjectType({
    name: 'I18NLocale',
    fields: {
      documentId: { type: new GraphQLNonNull(GraphQLID) }, name: { type: GraphQLString }, code: { type: GraphQLString },
      createdAt: { type: DateTimeScalar }, updatedAt: { type: DateTimeScalar }, publishedAt: { type: DateTimeScalar },
    },
  });
  const collection = new GraphQLObjectType({
    name: 'I18NLocaleEntityResponseCollection',
    fields: { nodes: { type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(type))) }, pageInfo: { type: new GraphQLNonNull(parts.pagination) } },
  });
  const statusArgs = {
    status: { type: parts.publicationStatus, defaultValue: 'published' },
    hasPublishedVersion: { type: GraphQLBoolean },
    publicationFilter: { type: parts.publicationFilter },
  };
  const listArgs = { filters: { type: filters }, pagination: { type: parts.paginationArg, defaultValue: {} }, sort: { type: new GraphQLList(GraphQLString), defaultValue: [] }, ...statusArgs };

  const page = async (args: Args, ctx: GraphqlContext) => {
    authorize(ctx, 'find');
    const window = windowOf(args.pagination, ctx.limits);
    const all = (await pluginsOf(ctx).locales()).map(entryOf);
    const kept = sortEntries(all.filter((e) => !isRecord(args.filters) || matches(e, args.filters)), args.sort);
    return { nodes: kept.slice(window.start, window.start + window.limit), window, total: kept.length };
  };
  const many: GraphQLFieldResolver<unknown, GraphqlContext, Args> = async (_p, args, ctx) => (await page(args, ctx)).nodes;
  const connection: GraphQLFieldResolver<unknown, GraphqlContext, Args> = async (_p, args, ctx) => {
    const { nodes, window, total } = await page(args, ctx);
    return { nodes, pageInfo: { total, page: Math.floor(window.start / window.limit) + 1, pageSize: window.limit, pageCount: Math.ceil(total / window.limit) } };
  };
  const one: GraphQLFieldResolver<unknown, GraphqlContext, Args> = async (_p, args, ctx) => {
    authorize(ctx, 'findOne');
    return (await pluginsOf(ctx).locales()).map(entryOf).find((e) => e.documentId === String(args.documentId)) ?? null;
  };
  return {
    type,
    fields: {
      i18NLocale: { type, args: { documentId: { type: new GraphQLNonNull(GraphQLID) }, ...statusArgs }, resolve: one },
      i18NLocales_connection: { type: collection, args: listArgs, resolve: connection },
      i18NLocales: { type: new GraphQLNonNull(new GraphQLList(type)), args: listArgs, resolve: many },
    },
  };
}
