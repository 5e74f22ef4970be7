import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../server/errors/app-error.js';
import { finalErrorHandler } from '../../server/http/error-handler.js';

/**
 * The app's last error handler on a real Express app and socket, with NODE_ENV=development (where
 * Express's own finalhandler would print the stack): whatever reaches it answers the envelope.
 */

const logs: string[] = [];
let url: string;
let close: () => Promise<void>;

beforeAll(async () => {
  const before = process.env.NODE_ENV;
  process.env.NODE_ENV = 'development';
  const app = express();
  process.env.NODE_ENV = before;
  const circular: Record<string, unknown> = {};
  circular.self = circular;
  app.get('/unserialisable', () => {
    throw new AppError('ValidationError', 'bad', circular);
  });
  app.get('/crash', () => {
    throw new TypeError('boom');
  });
  app.get('/async', async () => {
    await Promise.resolve();
    throw new AppError('ForbiddenError', 'Forbidden', {});
  });
  app.get('/unsafe', () => {
    throw new AppError('InternalServerError', 'the public role is gone', undefined, { safe: false, cause: new Error('row 7 missing') });
  });
  app.get('/operator', () => {
    throw new AppError('ListenError', 'port 1337 is already in use on 127.0.0.1');
  });
  app.use(finalErrorHandler((m) => logs.push(m)));
  const server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => new Promise((r) => server.close(() => r()));
});
afterAll(() => close());

const INTERNAL = { data: null, error: { status: 500, name: 'InternalServerError', message: 'Internal Server Error' } };

describe('finalErrorHandler', () => {
  const cases: [string, number, unknown][] = [
    ['/unserialisable', 500, INTERNAL],
    ['/crash', 500, INTERNAL],
    ['/async', 403, { data: null, error: { status: 403, name: 'ForbiddenError', message: 'Forbidden', details: {} } }],
    ['/unsafe', 500, INTERNAL],
    ['/operator', 500, INTERNAL],
  ];
  for (const [path, status, body] of cases) {
    it(`${path} answers ${status} with the envelope, never a page or a stack`, async () => {
      const res = await fetch(`${url}${path}`);
      expect(res.status).toBe(status);
      expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(await res.json()).toEqual(body);
    });
  }
  it('logs what failed, with the answer that failed', () => {
    expect(logs.some((l) => l.includes('GET /unserialisable failed, and so did its error answer'))).toBe(true);
    expect(logs.some((l) => l.includes('GET /crash failed: TypeError: boom'))).toBe(true);
    // An AppError that is not safe to show is answered as the generic 500 and logged with its cause.
    expect(logs.some((l) => l.includes('GET /unsafe failed: InternalServerError: the public role is gone') && l.includes('row 7 missing'))).toBe(true);
    expect(logs.some((l) => l.includes('GET /operator failed: ListenError: port 1337'))).toBe(true);
  });
});
