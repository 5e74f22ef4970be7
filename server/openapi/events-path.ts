import type { JsonSchema, SchemaSet } from './schema-set.js';
import { errorRef, type PathItem } from './responses.js';

/**
 * `GET /hearth/events` (http/events.ts): Server-Sent Events of the writes the caller may see,
 * listed when the caller may receive any (an entry type it may `find`, or the media library).
 */

/** The `data` line of each event: the webhook body (`{ event, createdAt, model, uid, entry }` or a media event's). */
const CHANGE_EVENT: JsonSchema = {
  type: 'object',
  required: ['event', 'createdAt'],
  description: 'The JSON of one event’s `data:` line: the body a webhook of the same event receives.',
  properties: {
    event: { type: 'string', examples: ['entry.create', 'entry.publish', 'media.delete'] },
    createdAt: { type: 'string', format: 'date-time' },
    model: { type: 'string' },
    uid: { type: 'string', description: 'The content type of an entry event' },
    entry: { type: 'object', additionalProperties: true, description: 'The entry (entry events)' },
    media: { type: 'object', additionalProperties: true, description: 'The file (media events)' },
  },
  additionalProperties: true,
};

const STREAM =
  'A text/event-stream: `id: <n>`, `event: <name>`, `data: <ChangeEvent JSON>` per write, `: heartbeat` comments while idle, and `event: reset` (data `{ lastEventId }`) when Last-Event-ID is older than the retention: what happened since is unknown, read again.';

export function eventsPath(set: SchemaSet): Record<string, PathItem> {
  const error = errorRef(set);
  const failure = (description: string): JsonSchema => ({ description, content: { 'application/json': { schema: error } } });
  return {
    '/hearth/events': {
      get: {
        tags: ['Change stream'],
        operationId: 'followChanges',
        summary: 'Follow the changes the caller may see, live (Server-Sent Events)',
        parameters: [
          { name: 'Last-Event-ID', in: 'header', description: 'Resume after this event id (EventSource sends it on reconnect).', schema: { type: 'string', pattern: '^[0-9]+$' } },
          { name: 'lastEventId', in: 'query', description: 'The same, for clients that cannot set the header.', schema: { type: 'string', pattern: '^[0-9]+$' } },
        ],
        responses: {
          200: { description: STREAM, content: { 'text/event-stream': { schema: { type: 'string', description: 'Each event’s data is a ChangeEvent', contentSchema: set.ref('ChangeEvent', () => CHANGE_EVENT) } } } },
          400: failure('Last-Event-ID is not an event id (ValidationError)'),
          401: failure('Missing, invalid or expired credentials (UnauthorizedError)'),
          429: failure('Too many open event streams (RateLimitError)'),
        },
      },
    },
  };
}
