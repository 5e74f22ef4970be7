import { useState } from 'react';

/** A dialog's or form's action: busy while it runs, its refusal kept to show. */
export interface Action {
  readonly busy: boolean;
  readonly error: unknown;
  /** Runs the action; a rejection becomes `error` (cleared when the next run starts). */
  readonly run: (action: () => Promise<void>) => Promise<void>;
}

/** The busy flag and last refusal every save or confirm button needs, written once. */
export function useAction(): Action {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const run = async (action: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await action();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, run };
}
