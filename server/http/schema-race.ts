import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { isSchemaRace } from '../schema/schema-set.js';
import { rerunRegistry, startAttempt, type RaceAttempt } from '../admin/schema-race.js';
import type { Services } from '../services.js';

/**
 * Team mode, for every route but the content API (which holds its registry itself, content-api.ts):
 * a request pinned to the schemas it arrived with that races a schema change made on another
 * instance is run again under the new ones (admin/schema-race.ts says when), instead of answering
 * the write guard's 409 or a column error.
 */

/** The pinned run of each request now being handled (its latest, after a re-run). */
const attempts = new WeakMap<Request, RaceAttempt>();

const released = (res: Response) => (release: () => void) => {
  res.once('finish', release);
};

/**
 * A request's body can be read again: none, JSON or urlencoded (http/body.ts keeps the text).
 * A multipart upload's parts are streamed to temp files that the upload moves into storage and
 * removes: a refused upload keeps the 409.
 */
const replayable = (req: Request): boolean => !/^multipart\//i.test(req.headers['content-type'] ?? '');

/** Pins the request to the running registry until its answer is sent, counting its writes (team mode) so it can be run again. */
export function pinRequest(services: Services, ctx: { req: Request; res: Response; next: NextFunction }): void {
  const { req, res, next } = ctx;
  const { schemas } = services;
  if (schemas.stamp() === null) {
    schemas.pinUntil(next, released(res));
    return;
  }
  startAttempt(
    schemas,
    (attempt) => {
      attempts.set(req, attempt);
      next();
    },
    { until: released(res), run: 1 },
  );
}

/** Whether `err` ends the request's run so that it runs again, having followed the newer schemas. */
async function followed(services: Services, req: Request, err: unknown): Promise<boolean> {
  const attempt = attempts.get(req);
  if (attempt === undefined || !replayable(req)) return false;
  return (await rerunRegistry(services.schemas, attempt, err)) !== null;
}

/**
 * `handler` (a router), run again from the start pinned to the new schemas when it fails with a
 * schema race before any of its writes began; otherwise its error goes on as it would.
 */
export function rerunOnSchemaRace(services: Services, handler: RequestHandler): RequestHandler {
  return (req, res, next) => {
    const done = (err?: unknown): void => {
      const last = attempts.get(req);
      if (err === undefined || err === 'route' || err === 'router' || last === undefined || res.headersSent) {
        next(err);
        return;
      }
      followed(services, req, err).then(
        (again) => {
          if (!again) {
            next(err);
            return;
          }
          startAttempt(
            services.schemas,
            (attempt) => {
              attempts.set(req, attempt);
              void handler(req, res, done);
            },
            { until: released(res), run: last.run + 1 },
          );
        },
        () => next(err),
      );
    };
    return handler(req, res, done);
  };
}

/**
 * GraphQL answers a resolver's error in its body (200 with `errors`): the schema race among
 * `errors` when the operation is to run again (nothing of it written, the newer schemas followed),
 * to be thrown so that `rerunOnSchemaRace` runs it; else null, and the errors are answered.
 */
export async function graphqlRace(services: Services, req: Request, errors: readonly { readonly originalError?: unknown }[]): Promise<unknown> {
  const race = errors.map((e) => e.originalError).find((cause) => cause !== undefined && isSchemaRace(cause));
  if (race === undefined) return null;
  return (await followed(services, req, race)) ? race : null;
}
