import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';

/**
 * A stopping server's readiness: from SIGTERM on, `GET /_health` answers 503 so a load balancer
 * takes the instance out, while every other request is still served (with `Connection: close`)
 * for HEARTH_SHUTDOWN_DRAIN_MS; then the server stops accepting and finishes what is in flight.
 */

const UNAVAILABLE = JSON.stringify({
  data: null,
  error: { status: 503, name: 'ServiceUnavailableError', message: 'This instance is shutting down', details: {} },
});

function isHealth(req: IncomingMessage): boolean {
  const path = (req.url ?? '').split('?')[0];
  return (req.method === 'GET' || req.method === 'HEAD') && path === '/_health';
}

/** Wraps the server's handler: `/_health` is 503 once `draining()` is true, everything else goes on as before. */
export function drainingHealth(next: RequestListener, draining: () => boolean): RequestListener {
  return (req: IncomingMessage, res: ServerResponse) => {
    if (!draining() || !isHealth(req)) {
      next(req, res);
      return;
    }
    res.writeHead(503, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(UNAVAILABLE), Connection: 'close' });
    res.end(req.method === 'HEAD' ? undefined : UNAVAILABLE);
  };
}
