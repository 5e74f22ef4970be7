import { expect } from 'vitest';
import type { TestServer } from '../../helpers/server.js';

/** A JSON object as the API returns it. */
export type Json = Record<string, unknown>;
const isJson = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A JSON call to the server with a bearer token; returns status and body. */
export async function call(server: TestServer, path: string, init: { method?: string; token?: string; json?: unknown } = {}): Promise<{ status: number; body: unknown }> {
  const res = await server.request(path, { method: init.method ?? 'GET', ...(init.token ? { token: init.token } : {}), ...(init.json !== undefined ? { json: init.json } : {}) });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

async function dataOf(server: TestServer, path: string, init: { method?: string; token?: string; json?: unknown }, status: number): Promise<unknown> {
  const res = await call(server, path, init);
  expect(res.status, `${init.method ?? 'GET'} ${path}: ${JSON.stringify(res.body)}`).toBe(status);
  if (!isJson(res.body) || !('data' in res.body)) throw new Error(`No data in ${JSON.stringify(res.body)}`);
  return res.body.data;
}

/** `data` (an object) of a successful JSON answer; fails the test on another status. */
export async function data(server: TestServer, path: string, init: { method?: string; token?: string; json?: unknown } = {}, status = 200): Promise<Json> {
  const value = await dataOf(server, path, init, status);
  if (!isJson(value)) throw new Error(`${path}: data is not an object: ${JSON.stringify(value)}`);
  return value;
}

/** `data` (a list of objects) of a successful JSON answer. */
export async function dataList(server: TestServer, path: string, init: { token?: string } = {}): Promise<Json[]> {
  const value = await dataOf(server, path, init, 200);
  if (!Array.isArray(value)) throw new Error(`${path}: data is not a list: ${JSON.stringify(value)}`);
  return value.filter(isJson);
}

/** The values of one key across a list of objects (`tags` -> their labels). */
export function pluck(list: unknown, key: string): unknown[] {
  return Array.isArray(list) ? list.map((item) => (isJson(item) ? item[key] : undefined)) : [];
}
