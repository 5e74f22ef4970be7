/**
 * Names of the SQL functions compiled statements call that SQLite does not have: each connection
 * that runs them registers them (documents/sql-functions.ts). A module of its own so that a read
 * thread (documents/read-worker.ts) loads the names without the compiler.
 */

/** Prints one stored value as the JS path would (JSON text): SQL-built answers (json-select.ts). */
export const VALUE_FUNCTION = 'hearth_json_value';
