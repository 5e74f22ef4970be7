import pg from 'pg';

/** A LISTEN kept open on a connection of its own. */
export interface ChannelListener {
  close(): Promise<void>;
  /**
   * The first column of the first row `text` answers, read on the listening connection (so a poll
   * beside the LISTEN costs no pool connection and is not counted as the server's statement);
   * undefined while that connection is down.
   */
  readValue(text: string): Promise<unknown>;
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
  let connected: pg.Client | null = null;
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
    const down = () => {
      if (connected === next) connected = null;
    };
    next.on('error', () => {
      down();
      next.end().catch(() => {});
      retry();
    });
    next.on('end', () => {
      down();
      retry();
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${args.channel}`);
      connected = next;
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
      connected = null;
      await client?.end().catch(() => {});
    },
    async readValue(text) {
      if (closed || connected === null) return undefined;
      const { rows } = await connected.query<Record<string, unknown>>(text);
      const row = rows[0];
      return row === undefined ? null : Object.values(row)[0];
    },
  };
}
