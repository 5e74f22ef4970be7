import { useCallback, useEffect, useRef, useState } from 'react';

/** The state of one load: its data once there, its error, and a way to load again. */
export interface Loaded<T> {
  readonly data: T | undefined;
  readonly error: unknown;
  readonly loading: boolean;
  reload(): void;
}

/** Runs `load` when `key` changes (and on reload), dropping answers that arrive after a newer request. */
export function useLoad<T>(load: () => Promise<T>, key: string): Loaded<T> {
  const [state, setState] = useState<{ data: T | undefined; error: unknown; loading: boolean }>({ data: undefined, error: null, loading: true });
  const [tick, setTick] = useState(0);
  const latest = useRef(load);
  latest.current = load;
  useEffect(() => {
    let current = true;
    setState((s) => ({ ...s, loading: true, error: null }));
    latest.current().then(
      (data) => current && setState({ data, error: null, loading: false }),
      (error: unknown) => current && setState((s) => ({ data: s.data, error, loading: false })),
    );
    return () => {
      current = false;
    };
  }, [key, tick]);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  return { ...state, reload };
}
