import { errorFromBody } from './errors';
import { toQueryString, type QueryValue } from './query';

/** Options of one JSON request. */
export interface RequestOptions {
  readonly query?: Readonly<Record<string, QueryValue>>;
  readonly json?: unknown;
  readonly signal?: AbortSignal;
}

/** What one upload sends to `/api/upload` (multipart `files`, `fileInfo`, `ref`/`refId`/`field`). */
export interface UploadRequest {
  readonly file: File;
  readonly fileInfo?: { readonly name?: string; readonly alternativeText?: string; readonly caption?: string };
  /** Replace this file (POST /api/upload?id=). */
  readonly replaceId?: number;
  /** Upload through the media library's admin route into this folder (null: the root), not into the content API's "API Uploads". */
  readonly folder?: number | null;
  readonly onProgress?: (fraction: number) => void;
  readonly signal?: AbortSignal;
}

/** The HTTP client of the admin screens: admin session on every call, Strapi's error envelope as ApiError. */
export interface ApiClient {
  request(method: string, path: string, options?: RequestOptions): Promise<unknown>;
  get(path: string, query?: Readonly<Record<string, QueryValue>>): Promise<unknown>;
  post(path: string, json?: unknown, query?: Readonly<Record<string, QueryValue>>): Promise<unknown>;
  put(path: string, json?: unknown, query?: Readonly<Record<string, QueryValue>>): Promise<unknown>;
  del(path: string, query?: Readonly<Record<string, QueryValue>>): Promise<unknown>;
  /** Uploads one file with XMLHttpRequest so upload progress can be reported. */
  upload(request: UploadRequest): Promise<unknown>;
  /** Sends a multipart form without a file (file info updates). */
  sendForm(path: string, form: FormData): Promise<unknown>;
  /** GETs a file with the session (a download): its bytes and the name its Content-Disposition gives. */
  download(path: string, query?: Readonly<Record<string, QueryValue>>): Promise<{ readonly blob: Blob; readonly fileName: string | null }>;
  /** GETs a streamed answer (the change stream) with the session: the Response, its body unread; a refusal throws ApiError. */
  stream(path: string, headers: Headers, signal: AbortSignal): Promise<Response>;
}

/** The file name of a `Content-Disposition: attachment; filename=...` header (quoted or not). */
function dispositionName(header: string | null): string | null {
  const match = header === null ? null : /filename=(?:"([^"]+)"|([^;\s]+))/.exec(header);
  return match?.[1] ?? match?.[2] ?? null;
}

/** Where an upload goes: a replace or a plain upload through the content API, or the admin's into a folder. */
function uploadUrl(req: UploadRequest): string {
  if (req.replaceId !== undefined) return `/api/upload?id=${req.replaceId}`;
  if (req.folder === undefined) return '/api/upload';
  return `/admin/api/upload?folder=${req.folder === null ? 'root' : String(req.folder)}`;
}

/** How the client finds the session and reports it gone. */
export interface ClientDeps {
  readonly getToken: () => string | null;
  /** Called on a 401 from an authenticated call: the session expired or was revoked. */
  readonly onUnauthorized: () => void;
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** Creates the client; every path is absolute from the server root (`/admin/api/...`, `/api/...`). */
export function createClient(deps: ClientDeps): ApiClient {
  async function send(method: string, url: string, body: string | FormData | undefined, headers: Headers, signal?: AbortSignal): Promise<unknown> {
    const token = deps.getToken();
    if (token) headers.set('Authorization', `Bearer ${token}`);
    const response = await fetch(url, { method, headers, body, signal: signal ?? null });
    const payload = await readJson(response);
    if (!response.ok) {
      if (response.status === 401 && headers.has('Authorization')) deps.onUnauthorized();
      throw errorFromBody(response.status, payload, response.statusText);
    }
    return payload;
  }

  function request(method: string, path: string, options: RequestOptions = {}): Promise<unknown> {
    const headers = new Headers({ Accept: 'application/json' });
    let body: string | undefined;
    if (options.json !== undefined) {
      headers.set('Content-Type', 'application/json');
      body = JSON.stringify(options.json);
    }
    return send(method, `${path}${toQueryString(options.query ?? {})}`, body, headers, options.signal);
  }

  function upload(req: UploadRequest): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      const form = new FormData();
      form.append('files', req.file, req.file.name);
      if (req.fileInfo) form.append('fileInfo', JSON.stringify(req.fileInfo));
      xhr.open('POST', uploadUrl(req));
      const token = deps.getToken();
      if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
      xhr.setRequestHeader('Accept', 'application/json');
      xhr.upload.addEventListener('progress', (event) => {
        if (event.lengthComputable && event.total > 0) req.onProgress?.(event.loaded / event.total);
      });
      xhr.addEventListener('load', () => {
        let payload: unknown;
        try {
          payload = xhr.responseText ? JSON.parse(xhr.responseText) : null;
        } catch {
          payload = null;
        }
        if (xhr.status >= 200 && xhr.status < 300) {
          req.onProgress?.(1);
          resolve(payload);
          return;
        }
        if (xhr.status === 401 && token) deps.onUnauthorized();
        reject(errorFromBody(xhr.status, payload, xhr.statusText));
      });
      xhr.addEventListener('error', () => reject(errorFromBody(0, null)));
      xhr.addEventListener('abort', () => reject(new DOMException('Upload cancelled', 'AbortError')));
      req.signal?.addEventListener('abort', () => xhr.abort());
      xhr.send(form);
    });
  }

  return {
    request,
    get: (path, query) => request('GET', path, query ? { query } : {}),
    post: (path, json, query) => request('POST', path, { json: json ?? {}, ...(query ? { query } : {}) }),
    put: (path, json, query) => request('PUT', path, { json: json ?? {}, ...(query ? { query } : {}) }),
    del: (path, query) => request('DELETE', path, query ? { query } : {}),
    upload,
    sendForm: (path, form) => send('POST', path, form, new Headers({ Accept: 'application/json' })),
    async download(path, query) {
      const headers = new Headers();
      const token = deps.getToken();
      if (token) headers.set('Authorization', `Bearer ${token}`);
      const response = await fetch(`${path}${toQueryString(query ?? {})}`, { headers });
      if (!response.ok) {
        if (response.status === 401 && token) deps.onUnauthorized();
        throw errorFromBody(response.status, await readJson(response), response.statusText);
      }
      return { blob: await response.blob(), fileName: dispositionName(response.headers.get('Content-Disposition')) };
    },
    async stream(path, headers, signal) {
      const token = deps.getToken();
      if (token) headers.set('Authorization', `Bearer ${token}`);
      const response = await fetch(path, { headers, signal, cache: 'no-store' });
      if (!response.ok) {
        if (response.status === 401 && token) deps.onUnauthorized();
        throw errorFromBody(response.status, await readJson(response), response.statusText);
      }
      return response;
    },
  };
}
