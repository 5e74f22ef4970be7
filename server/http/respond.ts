import type { Response } from 'express';
import type { AppError } from '../errors/app-error.js';

/** Sends a JSON body as Strapi does (`application/json; charset=utf-8`). */
export function sendJson(res: Response, status: number, body: unknown): void {
  sendJsonText(res, status, JSON.stringify(body));
}

/** Sends JSON text already serialised, or its bytes (a cached answer). */
export function sendJsonText(res: Response, status: number, text: string | Buffer): void {
  res.status(status).set('Content-Type', JSON_CONTENT_TYPE).send(text);
}

/** The Content-Type of every JSON answer, as Strapi (Koa) sends it. */
export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

export function sendError(res: Response, error: AppError): void {
  sendJson(res, error.status, error.toBody());
}

/** Koa's answer to a method a route does not have: plain text, with `Allow`. */
export function methodNotAllowed(res: Response, allow: readonly string[]): void {
  res.status(405).set('Allow', allow.join(', ')).set('Content-Type', 'text/plain; charset=utf-8').send('Method Not Allowed');
}
