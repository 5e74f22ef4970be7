import pg from 'pg';

/** PostgreSQL type OIDs whose text Hearth reads differently from node-postgres' defaults. */
const OID = {
  bool: 16,
  int8: 20,
  json: 114,
  date: 1082,
  time: 1083,
  timestamp: 1114,
  timestamptz: 1184,
  interval: 1186,
  timetz: 1266,
  numeric: 1700,
  jsonb: 3802,
} as const;

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
const MIN_SAFE = BigInt(Number.MIN_SAFE_INTEGER);

/** A whole number as SQLite hands it to Hearth (db/sqlite.ts): a number, or a BigInt beyond 2^53. */
function exactInteger(text: string): number | bigint {
  const value = BigInt(text);
  return value <= MAX_SAFE && value >= MIN_SAFE ? Number(value) : value;
}

/** NUMERIC (sums of bigints): whole values as exact integers, others as doubles. */
const numeric = (text: string): number | bigint => (/^-?\d+$/.test(text) ? exactInteger(text) : Number(text));

const asText = (text: string): string => text;

type Parser = (text: string) => unknown;

/** Parsers that make PostgreSQL's values the very values SQLite returns (text formats only: pg never asks for binary). */
const PARSERS = new Map<number, Parser>([
  // COUNT(*) and bigint columns: numbers, exact BigInts beyond 2^53, never strings.
  [OID.int8, exactInteger],
  [OID.numeric, numeric],
  // SQLite has no booleans: a boolean expression reads as 1 or 0 there.
  [OID.bool, (text) => (text === 't' ? 1 : 0)],
  // Hearth keeps dates and JSON as text: a column or expression of these types is read as its text, never a Date or an object.
  [OID.json, asText],
  [OID.jsonb, asText],
  [OID.date, asText],
  [OID.time, asText],
  [OID.timetz, asText],
  [OID.timestamp, asText],
  [OID.timestamptz, asText],
  [OID.interval, asText],
]);

/** node-postgres' type hook for one pool (no global `types.setTypeParser`): Hearth's parsers first, pg's for the rest. */
export const hearthTypes: pg.CustomTypesConfig = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    const parser = format === 'binary' ? undefined : PARSERS.get(oid);
    return parser ?? pg.types.getTypeParser(oid, format);
  },
};
