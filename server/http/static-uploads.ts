import { extname } from 'node:path';
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { isInlineSafe } from '../uploads/storage-provider.js';
import { isRecord } from '../errors/is-record.js';

/**
 * `/uploads/<name>`: the local provider's files, as Strapi's public middleware serves them (type
 * from the extension, `text/plain; charset=utf-8` for text), with ETag, Last-Modified and range
 * requests. No index, no directory listing, no dotfiles; `..` never leaves the folder (send
 * refuses it and the request falls through to the 404). Browsers are told not to sniff, and any
 * type they could render as a page is sent as an attachment.
 */
export function staticUploads(dir: string): RequestHandler {
  const serve = express.static(dir, {
    index: false,
    redirect: false,
    dotfiles: 'ignore',
    fallthrough: true,
    setHeaders(res, path) {
      // Set the type here (send keeps an existing one) so the disposition can depend on it.
      res.type(extname(path) || 'application/octet-stream');
      res.set('X-Content-Type-Options', 'nosniff');
      const type = res.get('Content-Type') ?? 'application/octet-stream';
      if (!isInlineSafe(type)) res.set('Content-Disposition', 'attachment');
    },
  });
  return (req: Request, res: Response, next: NextFunction) => {
    serve(req, res, (err?: unknown) => {
      const status = httpStatusOf(err);
      if (status === null) {
        next(err);
        return;
      }
      // send's client errors on an existing file (416 bad range, 412 failed precondition), as send answers them itself.
      for (const [name, value] of Object.entries(headersOf(err))) res.set(name, value);
      res.status(status).end();
    });
  };
}


function httpStatusOf(err: unknown): number | null {
  if (!isRecord(err) || typeof err.status !== 'number') return null;
  return err.status >= 400 && err.status < 500 ? err.status : null;
}

function headersOf(err: unknown): Record<string, string> {
  const headers = isRecord(err) && isRecord(err.headers) ? err.headers : {};
  return Object.fromEntries(Object.entries(headers).filter((e): e is [string, string] => typeof e[1] === 'string'));
}
