import { Agent, request, type IncomingHttpHeaders } from 'node:http';

/** Keep-alive connections for seeding and one-off requests. */
export const agent = new Agent({ keepAlive: true, maxSockets: 256 });

export interface RawResponse {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
}

/** One request; resolves with the full body (any status). */
export function send(url: string, init: { method?: string; token?: string; json?: unknown; headers?: Record<string, string> } = {}): Promise<RawResponse> {
  const headers: Record<string, string> = { ...init.headers };
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  let payload: Buffer | undefined;
  if (init.json !== undefined) {
    payload = Buffer.from(JSON.stringify(init.json));
    headers['content-type'] = 'application/json';
    headers['content-length'] = String(payload.length);
  }
  return new Promise((done, fail) => {
    const req = request(url, { method: init.method ?? 'GET', headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => done({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', fail);
    });
    req.on('error', fail);
    req.end(payload);
  });
}

/** A JSON request that must answer `expect`; resolves with the parsed body. */
export async function sendJson<T = unknown>(url: string, init: { method?: string; token?: string; json?: unknown }, expect: number): Promise<T> {
  const res = await send(url, init);
  if (res.status !== expect) throw new Error(`${init.method ?? 'GET'} ${url} answered ${res.status} (expected ${expect}): ${res.body.toString('utf8').slice(0, 500)}`);
  return JSON.parse(res.body.toString('utf8')) as T;
}
