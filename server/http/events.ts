import type { Request, Response } from 'express';
import { validationError } from '../errors/app-error.js';
import type { StoredEvent } from '../events/index.js';
import type { Services } from '../services.js';
import { authenticate, type Caller } from './caller.js';

/** The upload plugin's read action: media events go to callers that may list files. */
const MEDIA_FIND = 'plugin::upload.content-api.find';

/** Whether `caller` may receive `e`: entry events of the types it may `find`, media events with the upload's `find`. */
function mayReceive(caller: Caller, e: StoredEvent): boolean {
  if (e.event.startsWith('media.')) return caller.allows(MEDIA_FIND);
  const uid = e.payload.uid;
  return typeof uid === 'string' && caller.allows(`${uid}.find`);
}

/** Last-Event-ID (the header EventSource sends on reconnect wins), else the `lastEventId` query parameter; null: none. */
function lastEventIdOf(req: Request): number | null {
  const header = req.headers['last-event-id'];
  const raw = typeof header === 'string' && header.trim() !== '' ? header.trim() : new URLSearchParams(req.url.split('?')[1] ?? '').get('lastEventId');
  if (raw === null || raw === '') return null;
  if (!/^\d{1,15}$/.test(raw)) throw validationError('Last-Event-ID must be an event id (a non-negative integer)', { lastEventId: raw });
  return Number(raw);
}

/**
 * `GET /hearth/events`: Server-Sent Events of the changes the caller may see. The caller is
 * resolved as the content API resolves it (no Authorization: the public role; a bad credential:
 * 401), and again before each batch, so a revoked token or a narrowed role takes effect at once.
 */
export function eventsRoute(services: Services) {
  return async (req: Request, res: Response): Promise<void> => {
    await authenticate(req, services);
    const lastEventId = lastEventIdOf(req);
    await services.events.open({
      res,
      lastEventId,
      allowed: async () => {
        const caller = await authenticate(req, services);
        return (e) => mayReceive(caller, e);
      },
    });
  };
}
