import { GraphQLError, GraphQLScalarType, Kind, type ValueNode } from 'graphql';

/** Strapi's custom scalars (graphql-scalars' JSON, DateTime, Date, Long; Strapi's Time and I18NLocaleCode), with its descriptions. */

function literalOf(node: ValueNode, variables?: Readonly<Record<string, unknown>> | null): unknown {
  switch (node.kind) {
    case Kind.STRING:
    case Kind.BOOLEAN:
    case Kind.ENUM:
      return node.value;
    case Kind.INT:
    case Kind.FLOAT:
      return Number(node.value);
    case Kind.NULL:
      return null;
    case Kind.LIST:
      return node.values.map((v) => literalOf(v, variables));
    case Kind.OBJECT:
      return Object.fromEntries(node.fields.map((f) => [f.name.value, literalOf(f.value, variables)]));
    case Kind.VARIABLE:
      return variables?.[node.name.value];
  }
}

export const JSONScalar = new GraphQLScalarType({
  name: 'JSON',
  description:
    'The `JSON` scalar type represents JSON values as specified by [ECMA-404](http://www.ecma-international.org/publications/files/ECMA-ST/ECMA-404.pdf).',
  serialize: (v) => v,
  parseValue: (v) => v,
  parseLiteral: literalOf,
});

const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/i;
const DATE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;
const TIME = /^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d{1,3})?)?$/;

function stringScalar(args: { name: string; description: string; check: (v: string) => boolean; what: string; out?: (v: string) => string; invalid?: string }) {
  const read = (value: unknown): string => {
    // A plain Error: graphql-js then reports `Expected value of type "X", found ...; <message>` at the value, as for Strapi.
    if (typeof value !== 'string' || !args.check(value)) throw new Error(args.invalid ?? `${args.what} cannot represent an invalid ${args.what.toLowerCase()} string ${JSON.stringify(value)}`);
    return value;
  };
  return new GraphQLScalarType({
    name: args.name,
    description: args.description,
    serialize: (value) => {
      if (value instanceof Date) return args.out ? args.out(value.toISOString()) : value.toISOString();
      if (typeof value === 'string') return args.out ? args.out(value) : value;
      throw new GraphQLError(`${args.what} cannot represent a non string, or non Date type ${JSON.stringify(value)}`);
    },
    parseValue: read,
    parseLiteral: (node) => read(node.kind === Kind.STRING ? node.value : undefined),
  });
}

/** DateTime's output is checked too: a value that is no date-time (a `timestamp` stored as epoch ms) is that field's error, as graphql-scalars' DateTime. */
const checkedDateTime = (value: string): string => {
  if (!DATE_TIME.test(value)) throw new GraphQLError(`DateTime cannot represent an invalid date-time-string ${value}.`);
  return value;
};

export const DateTimeScalar = stringScalar({
  name: 'DateTime',
  description:
    'A date-time string at UTC, such as 2007-12-03T10:15:30Z, compliant with the `date-time` format outlined in section 5.6 of the RFC 3339 profile of the ISO 8601 standard for representation of dates and times using the Gregorian calendar.',
  check: (v) => DATE_TIME.test(v) && !Number.isNaN(Date.parse(v)),
  what: 'DateTime',
  out: checkedDateTime,
});

export const TimeScalar = stringScalar({
  name: 'Time',
  description: 'A time string with format HH:mm:ss.SSS',
  check: (v) => TIME.test(v),
  what: 'Time',
  // Strapi's parseTime message (transcript 145).
  invalid: 'Invalid time format, expected HH:mm:ss.SSS',
  out: (v) => {
    const [hms = v, ms = '000'] = v.split('.');
    const full = hms.length === 5 ? `${hms}:00` : hms;
    return `${full}.${ms.padEnd(3, '0').slice(0, 3)}`;
  },
});

export const DateScalar = stringScalar({
  name: 'Date',
  description:
    'A date string, such as 2007-12-03, compliant with the `full-date` format outlined in section 5.6 of the RFC 3339 profile of the ISO 8601 standard for representation of dates and times using the Gregorian calendar.',
  check: (v) => DATE.test(v),
  what: 'Date',
  out: (v) => v.slice(0, 10),
});

export const LongScalar = new GraphQLScalarType({
  name: 'Long',
  description: 'The `BigInt` scalar type represents non-fractional signed whole numeric values.',
  serialize: (v) => (typeof v === 'bigint' || typeof v === 'number' ? String(v) : v),
  parseValue: (v) => v,
  parseLiteral: (node) => (node.kind === Kind.INT || node.kind === Kind.STRING ? node.value : undefined),
});

/** `I18NLocaleCode`: a configured locale code or `*`; `codes` is read at each parse (locales change at run time). */
export function localeCodeScalar(codes: () => ReadonlySet<string>): GraphQLScalarType {
  const read = (value: unknown): string => {
    if (typeof value !== 'string' || (value !== '*' && !codes().has(value))) throw new Error('Unknown locale supplied');
    return value;
  };
  return new GraphQLScalarType({
    name: 'I18NLocaleCode',
    description: 'A string used to identify an i18n locale',
    serialize: (v) => v,
    parseValue: read,
    parseLiteral: (node) => read(node.kind === Kind.STRING ? node.value : undefined),
  });
}
