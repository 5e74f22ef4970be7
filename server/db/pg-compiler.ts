import { PostgresQueryCompiler } from 'kysely';

const INT8_MAX = 2n ** 63n - 1n;
const INT8_MIN = -(2n ** 63n);

/** The type a JavaScript value is bound as; null: leave it to PostgreSQL (strings, nulls, buffers). */
function parameterType(value: unknown): string | null {
  if (typeof value === 'number') return Number.isSafeInteger(value) ? 'bigint' : 'double precision';
  if (typeof value === 'bigint') return value <= INT8_MAX && value >= INT8_MIN ? 'bigint' : 'numeric';
  return null;
}

/**
 * node-postgres sends every parameter as untyped text, and PostgreSQL then reads it as the type
 * of what it meets: `views < '0.5'` fails for an integer column, `views = '3000000000'` overflows
 * it. SQLite compares the numbers. So numbers are bound as what they are (`$1::bigint`,
 * `$1::double precision`): PostgreSQL then compares across numeric types, as SQLite does, and
 * integer comparisons still use the indexes. Strings stay untyped, so they keep taking the
 * type of the column they are compared with or stored into.
 */
export class TypedParametersCompiler extends PostgresQueryCompiler {
  protected override appendValue(parameter: unknown): void {
    super.appendValue(parameter);
    const type = parameterType(parameter);
    if (type !== null) this.append(`::${type}`);
  }
}
