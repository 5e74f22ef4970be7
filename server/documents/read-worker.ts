/**
 * A read thread (read-pool.ts): runs the statements of SQL-built answers on its own read-only
 * connection to the database file, so that building a populated page's JSON, the bulk of a
 * computed read's cost, runs beside the thread that answers HTTP. Messages: `{ id, sql, parameters }`
 * in, `{ id, rows }` or `{ id, error }` out; `{ close: true }` closes the connection and ends the thread.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { openSqliteReader } from '../db/sqlite-reader.js';
import { defineSqlFunctions } from './sql-functions.js';
import type { ReadRequest, ReadThreadData } from './read-pool.js';

const port = parentPort;
if (port === null) throw new Error('read-worker runs as a worker thread (read-pool.ts starts it)');
const { file, nativeBinding } = workerData as ReadThreadData;
const reader = openSqliteReader(file, nativeBinding === undefined ? {} : { nativeBinding });
defineSqlFunctions((name, fn) => reader.defineFunction(name, fn));

port.on('message', (message: ReadRequest | { close: true }) => {
  if ('close' in message) {
    reader.close();
    port.close();
    return;
  }
  try {
    port.postMessage({ id: message.id, rows: reader.all(message.sql, message.parameters) });
  } catch (err) {
    const code = err instanceof Error && 'code' in err && typeof err.code === 'string' ? err.code : undefined;
    port.postMessage({ id: message.id, error: { message: err instanceof Error ? err.message : String(err), code } });
  }
});
