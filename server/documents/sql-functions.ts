import { VALUE_FUNCTION } from '../compiler/sql-functions.js';
import type { ScalarType } from '../schema/types.js';
import { outputValue } from './serialize.js';

/**
 * The SQL functions SQL-built answers call (compiler/json-select.ts), registered on every
 * connection that runs them: the server's own and each read thread's (read-worker.ts).
 */
export function defineSqlFunctions(define: (name: string, fn: (...args: unknown[]) => unknown) => void): void {
  // What SQLite would print otherwise: values whose stored form is printed through JS.
  define(VALUE_FUNCTION, (type, value) => JSON.stringify(outputValue(type as ScalarType, value)));
}
