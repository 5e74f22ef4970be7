import { createContext, useContext, useEffect, useMemo, useRef, type ReactNode } from 'react';
import { followEventStream, type LiveEvent } from '../../api/event-stream';
import { useClient } from '../auth/session';
import { refreshDelay } from './refresh-delay';

export type { LiveEvent } from '../../api/event-stream';

/** What a screen hears: one event, or `reset` (events may have been missed: refresh what is open). */
export type LiveSignal = LiveEvent | 'reset';

type Listener = (signal: LiveSignal) => void;

/** Listens to the session's one change stream; returns a function that stops listening. */
type Subscribe = (listener: Listener) => () => void;

const LiveContext = createContext<Subscribe | null>(null);


/**
 * Opens the change stream (`GET /hearth/events`) once for the signed-in session and hands each
 * event to the screens that listen. The admin session sees every content type and the media.
 */
export function LiveEventsProvider({ children }: { readonly children: ReactNode }) {
  const client = useClient();
  const listeners = useRef(new Set<Listener>());
  useEffect(() => {
    const tell = (signal: LiveSignal) => {
      for (const listener of [...listeners.current]) listener(signal);
    };
    return followEventStream({
      open: (headers, signal) => client.stream('/hearth/events', headers, signal),
      onEvent: tell,
      onReset: () => tell('reset'),
    });
  }, [client]);
  const subscribe = useMemo<Subscribe>(
    () => (listener) => {
      listeners.current.add(listener);
      return () => listeners.current.delete(listener);
    },
    [],
  );
  return <LiveContext.Provider value={subscribe}>{children}</LiveContext.Provider>;
}

/** Calls `onSignal` for every event and reset of the stream (outside a LiveEventsProvider: never). */
export function useLiveEvents(onSignal: Listener): void {
  const subscribe = useContext(LiveContext);
  const latest = useRef(onSignal);
  latest.current = onSignal;
  useEffect(() => subscribe?.((signal) => latest.current(signal)), [subscribe]);
}

/**
 * Calls `refresh` once, LIVE_REFRESH_DEBOUNCE_MS after the last event `matches` accepts (or a
 * reset), and at least every LIVE_REFRESH_MAX_WAIT_MS while they keep coming.
 */
export function useLiveRefresh(matches: (event: LiveEvent) => boolean, refresh: () => void): void {
  const timer = useRef<number | null>(null);
  const firstAt = useRef(0);
  const latest = useRef(refresh);
  latest.current = refresh;
  useEffect(
    () => () => {
      if (timer.current !== null) window.clearTimeout(timer.current);
    },
    [],
  );
  useLiveEvents((signal) => {
    if (signal !== 'reset' && !matches(signal)) return;
    const now = Date.now();
    if (timer.current === null) firstAt.current = now;
    else window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => {
      timer.current = null;
      latest.current();
    }, refreshDelay(firstAt.current, now));
  });
}

/** An entry event (`entry.*`) of the content type `uid`. */
export const isEntryEventOf = (uid: string) => (event: LiveEvent): boolean => event.event.startsWith('entry.') && event.data.uid === uid;

/** A media library event (`media.*`). */
export const isMediaEvent = (event: LiveEvent): boolean => event.event.startsWith('media.');
