import { randomBytes } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { AppError } from '../errors/app-error.js';
import { JSON_CONTENT_TYPE, sendError } from './respond.js';

/** The generic 500, serialised once: the answer of last resort needs no serialiser. */
const INTERNAL = new AppError('InternalServerError', 'Internal Server Error');
const INTERNAL_TEXT = JSON.stringify(INTERNAL.toBody());

/** Turns any thrown value into the envelope; unknown and unsafe ones are logged with a request id. */
function answer(err: unknown, req: Request, res: Response, log: (message: string) => void): void {
  if (err instanceof AppError && err.safe) {
    sendError(res, err);
    return;
  }
  // A path segment that is not valid percent-encoding (`/api/articles/%ZZ`): the client's mistake.
  if (err instanceof URIError) {
    sendError(res, new AppError('BadRequestError', 'Bad Request', {}));
    return;
  }
  const id = randomBytes(6).toString('hex');
  const cause = err instanceof Error && err.cause !== undefined ? ` (cause: ${err.cause instanceof Error ? (err.cause.stack ?? err.cause.message) : String(err.cause)})` : '';
  const detail = `${err instanceof Error ? (err.stack ?? err.message) : String(err)}${cause}`;
  log(`[${id}] ${req.method} ${req.originalUrl} failed: ${detail}`);
  res.set('X-Request-Id', id);
  sendError(res, INTERNAL);
}

/**
 * The app's last handler. Whatever happens here, Express's own finalhandler (an HTML page with
 * the stack in development) is never reached: the handler never calls `next`, never throws, and
 * runs on a fresh stack (an error raised deep in a recursion arrives with the stack nearly full).
 * If answering fails (an error whose details cannot be serialised), the generic 500 is sent as
 * fixed text; if even that fails, the connection is closed.
 */
export function finalErrorHandler(log: (message: string) => void) {
  return async (err: unknown, req: Request, res: Response, _next: NextFunction): Promise<void> => {
    await Promise.resolve();
    try {
      if (res.headersSent) res.end();
      else answer(err, req, res, log);
    } catch (failure) {
      try {
        log(`${req.method} ${req.originalUrl} failed, and so did its error answer: ${failure instanceof Error ? failure.message : String(failure)}`);
        if (res.headersSent) res.end();
        else res.status(500).set('Content-Type', JSON_CONTENT_TYPE).send(INTERNAL_TEXT);
      } catch {
        res.destroy();
      }
    }
  };
}
