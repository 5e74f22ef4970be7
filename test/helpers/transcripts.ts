import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The recorded Strapi 5 transcripts shipped beside the project. */
export const TRANSCRIPTS_DIR = resolve(import.meta.dirname, '../fixtures/strapi/transcripts');
export const TYPE_TRANSCRIPTS_DIR = resolve(import.meta.dirname, '../fixtures/strapi/transcripts-types');
export const STRAPI_FIXTURES_DIR = resolve(import.meta.dirname, '../fixtures/strapi/fixtures');

export type RequestBody =
  | { readonly kind: 'none' }
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'multipart'; readonly parts: readonly MultipartPart[] };

export type MultipartPart =
  | { readonly name: string; readonly file: string; readonly type: string }
  | { readonly name: string; readonly value: string };

/** One recorded request/response pair. */
export interface Transcript {
  readonly file: string;
  readonly number: number;
  readonly title: string;
  readonly notes: string;
  readonly method: string;
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: RequestBody;
  readonly status: number;
  readonly responseHeaders: Readonly<Record<string, string>>;
  /** The exact body bytes as text; null for a binary body. */
  readonly rawBody: string | null;
  /** A binary body's length and SHA-256 (hex), as the transcript records them; null for text. */
  readonly binaryBody: { readonly bytes: number; readonly sha256: string } | null;
}

function headerBlock(lines: string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const at = line.indexOf(':');
    if (at > 0) headers[line.slice(0, at).trim().toLowerCase()] = line.slice(at + 1).trim();
  }
  return headers;
}

function parseRequestBody(text: string): RequestBody {
  const body = text.trim();
  if (body === '' || body === '(no body)') return { kind: 'none' };
  if (body.startsWith('(raw, exact bytes between the markers)')) {
    const start = text.indexOf('<<<') + 3;
    const end = text.lastIndexOf('>>>');
    return { kind: 'text', text: text.slice(start, end) };
  }
  if (body.startsWith('multipart/form-data parts')) {
    const parts: MultipartPart[] = [];
    for (const line of body.split('\n').slice(1)) {
      const m = /^\s*part ([^=]+)=(.*)$/.exec(line);
      if (!m) continue;
      const [, name = '', value = ''] = m;
      const file = /^@([^;]+);type=(.+)$/.exec(value);
      parts.push(file ? { name, file: file[1] ?? '', type: file[2] ?? '' } : { name, value });
    }
    return { kind: 'multipart', parts };
  }
  return { kind: 'text', text: body };
}

/** Parses one transcript file. */
export function parseTranscript(file: string): Transcript {
  const text = readFileSync(file, 'utf8');
  const [head = '', rest = ''] = text.split('>>> REQUEST\n');
  const [request = '', afterRequest = ''] = rest.split('>>> RESPONSE\n');
  const [response = '', raw = ''] = afterRequest.split('>>> RAW RESPONSE BODY (exact bytes as received)\n');
  const headLines = head.split('\n').filter((l) => l.startsWith('#')).map((l) => l.replace(/^#\s?/, ''));
  const [requestHead = '', ...requestBodyParts] = request.split('\n\n');
  const [requestLine = '', ...requestHeaders] = requestHead.split('\n');
  const [method = 'GET', path = '/'] = requestLine.split(' ');
  const [responseHead = ''] = response.split('\n\n');
  const [statusLine = '', ...responseHeaders] = responseHead.split('\n');
  const rawText = raw.replace(/\n$/, '');
  const binary = /^\(binary body: (\d+) bytes, sha256 ([0-9a-f]{64})\)/.exec(response.split('\n\n').slice(1).join('\n\n').trim());
  const name = file.split('/').pop() ?? file;
  return {
    file: name,
    number: Number(name.slice(0, 3)),
    title: headLines[0] ?? name,
    notes: headLines.slice(1).join(' '),
    method,
    path,
    headers: headerBlock(requestHeaders),
    body: parseRequestBody(requestBodyParts.join('\n\n')),
    status: Number(statusLine.split(' ')[1]),
    responseHeaders: headerBlock(responseHeaders),
    rawBody: rawText.startsWith('(binary body') ? null : rawText === '(empty)' ? '' : rawText,
    binaryBody: binary ? { bytes: Number(binary[1]), sha256: binary[2] ?? '' } : null,
  };
}

/** Every transcript of a folder, in recording order. */
export function loadTranscripts(dir: string): Transcript[] {
  return readdirSync(dir)
    .filter((f) => /^\d{3}-.*\.txt$/.test(f))
    .sort()
    .map((f) => parseTranscript(join(dir, f)));
}
