import { useEffect, useState } from 'react';
import { isRecord } from '../../api/decode';
import type { Entry } from '../../api/types';
import { useLiveEvents, type LiveEvent } from '../live/live-events';

/** What the edit screen has open: the type, the document and locale, and the version loaded. */
export interface OpenEntry {
  readonly uid: string;
  readonly documentId: string | null;
  readonly locale: string | null;
  readonly entry: Entry | null;
  readonly dirty: boolean;
  /** An action of this screen is writing, or its result is being read back: the events now are its own. */
  readonly busy: () => boolean;
  /** Reads the entry again (the form is clean, or the user asked). */
  readonly reload: () => void;
}

const time = (value: unknown): number | null => (typeof value === 'string' && !Number.isNaN(Date.parse(value)) ? Date.parse(value) : null);

/** Whether `event` is about the open document in its locale, in a version newer than the one loaded. */
function concerns(event: LiveEvent, open: OpenEntry): boolean {
  if (!event.event.startsWith('entry.') || event.data.uid !== open.uid || open.documentId === null) return false;
  const entry = isRecord(event.data.entry) ? event.data.entry : null;
  if (!entry || entry.documentId !== open.documentId) return false;
  const locale = typeof entry.locale === 'string' ? entry.locale : null;
  if (locale !== null && open.locale !== null && locale !== open.locale) return false;
  // The version already loaded (this screen's own save, read back) is no news.
  const seen = time(open.entry?.updatedAt);
  const changed = time(entry.updatedAt);
  return event.event === 'entry.delete' || seen === null || changed === null || changed > seen;
}

/**
 * Follows the change stream for the open entry: a change made elsewhere reloads a clean form, and
 * on a form with unsaved edits only raises `changedElsewhere` (the edits are never overwritten).
 * A reset of the stream counts as a change. Cleared once the form is clean again (reloaded or saved).
 */
export function useChangedElsewhere(open: OpenEntry): boolean {
  const [changedElsewhere, setChanged] = useState(false);
  useEffect(() => {
    if (!open.dirty) setChanged(false);
  }, [open.dirty]);
  useLiveEvents((signal) => {
    if (open.busy() || open.documentId === null) return;
    if (signal !== 'reset' && !concerns(signal, open)) return;
    if (open.dirty) setChanged(true);
    else open.reload();
  });
  return changedElsewhere;
}
