import { useState } from 'react';
import { describeError } from '../../api/errors';
import type { Entry } from '../../api/types';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { useToast } from '../../components/toast';
import { useClient } from '../auth/session';
import { deleteDocument, documentAction } from './content-api';

/** An action applied to every selected entry. */
export type BulkAction = 'publish' | 'unpublish' | 'delete';

const WORDS: Record<BulkAction, { verb: string; done: string }> = {
  publish: { verb: 'Publish', done: 'Published' },
  unpublish: { verb: 'Unpublish', done: 'Unpublished' },
  delete: { verb: 'Delete', done: 'Deleted' },
};
const count = (n: number) => `${n} ${n === 1 ? 'entry' : 'entries'}`;

/** An entry the action could not be applied to, with the server's reason. */
interface Failure {
  readonly label: string;
  readonly message: string;
}

/** Props of the bulk bar. */
export interface BulkBarProps {
  readonly uid: string;
  readonly selected: readonly Entry[];
  readonly drafts: boolean;
  readonly localized: boolean;
  readonly labelOf: (entry: Entry) => string;
  readonly onClear: () => void;
  /** After an action, whether or not every entry succeeded: reload the list. */
  readonly onDone: () => void;
}

/**
 * Publish, unpublish or delete the selected entries, one request each through the admin content
 * API (in the locale each was listed in); the entries it failed for are listed with the reason.
 */
export function BulkBar({ uid, selected, drafts, localized, labelOf, onClear, onDone }: BulkBarProps) {
  const client = useClient();
  const toast = useToast();
  const [asking, setAsking] = useState<BulkAction | null>(null);
  const [report, setReport] = useState<{ action: BulkAction; done: number; failures: Failure[] } | null>(null);

  const run = async (action: BulkAction) => {
    const failures: Failure[] = [];
    let done = 0;
    for (const entry of selected) {
      const locale = localized ? entry.locale : null;
      try {
        if (action === 'delete') await deleteDocument(client, uid, entry.documentId, locale);
        else await documentAction(client, uid, entry.documentId, action, locale);
        done += 1;
      } catch (e) {
        failures.push({ label: labelOf(entry), message: describeError(e) });
      }
    }
    setReport(failures.length > 0 ? { action, done, failures } : null);
    if (failures.length === 0) toast.notify(`${WORDS[action].done} ${count(done)}`);
    onDone();
  };

  const actions: BulkAction[] = drafts ? ['publish', 'unpublish', 'delete'] : ['delete'];
  return (
    <>
      {selected.length > 0 ? (
        <div className="bulk-bar" role="region" aria-label="Selected entries">
          <span aria-live="polite">{count(selected.length)} selected</span>
          {actions.map((a) => (
            <button key={a} type="button" className={a === 'delete' ? 'btn btn-small btn-danger' : 'btn btn-small'} onClick={() => setAsking(a)}>
              {WORDS[a].verb}
            </button>
          ))}
          <button type="button" className="btn btn-small btn-ghost" onClick={onClear}>
            Clear selection
          </button>
        </div>
      ) : null}
      {report ? (
        <div className="notice notice-error bulk-report" role="alert">
          <p>
            {WORDS[report.action].done} {report.done} of {report.done + report.failures.length} entries. Not {WORDS[report.action].done.toLowerCase()}:
          </p>
          <ul>
            {report.failures.map((f, i) => (
              <li key={i}>
                <strong>{f.label}</strong>: {f.message}
              </li>
            ))}
          </ul>
          <button type="button" className="btn btn-small" onClick={() => setReport(null)}>
            Dismiss
          </button>
        </div>
      ) : null}
      {asking ? (
        <ConfirmDialog
          title={`${WORDS[asking].verb} ${count(selected.length)}?`}
          confirmLabel={`${WORDS[asking].verb} ${count(selected.length)}`}
          danger={asking === 'delete'}
          onConfirm={() => run(asking)}
          onClose={() => setAsking(null)}
        >
          <p>
            {asking === 'delete'
              ? `The ${count(selected.length)} selected will be deleted${localized ? ' in the locale shown' : ''}. This cannot be undone.`
              : asking === 'publish'
                ? `The drafts of the ${count(selected.length)} selected will be published.`
                : `The ${count(selected.length)} selected will be unpublished; their drafts are kept.`}
          </p>
        </ConfirmDialog>
      ) : null}
    </>
  );
}
