import pg from 'pg';

/** A LISTEN kept open on a connection of its own. */
export interface ChannelListener {
  close(): Promise<void>;
}

/**
 * LISTENs on `channel` on a dedicated client (not the pool's), and reconnects `retryMs` after the
 * connection fails or ends. `onConnect` runs after each (re)connection: a notification sent while
 * no connection was listening is lost, so the caller looks for what it may have missed.
 */
export function listenChannel(args: {
  url: string;
  channel: string;
  retryMs: number;
  onMessage: (payload: string) => void;
  onConnect: () => void;
}): ChannelListener {
  let closed = false;
  let client: pg.Client | null = null;
  let timer: NodeJS.Timeout | null = null;
  const retry = () => {
    if (closed || timer !== null) return;
    timer = setTimeout(() => {
      timer = null;
      void open();
    }, args.retryMs);
    timer.unref();
  };
  async function open(): Promise<void> {
    const next = new pg.Client({ connectionString: args.url });
    client = next;
    next.on('notification', (message) => {
      if (message.channel === args.channel) args.onMessage(message.payload ?? '');
    });
    next.on('error', () => {
      next.end().catch(() => {});
      retry();
    });
    next.on('end', retry);
    try {
      await next.connect();
      await next.query(`LISTEN ${args.channel}`);
      if (!closed) args.onConnect();
    } catch {
      next.end().catch(() => {});
      retry();
    }
  }
  void open();
  return {
    async close() {
      closed = true;
      if (timer !== null) clearTimeout(timer);
      await client?.end().catch(() => {});
    },
  };
}
