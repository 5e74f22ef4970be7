import type { ReactNode } from 'react';
import { describeError } from '../api/errors';
import { Dialog } from './dialog';
import { ErrorNotice } from './feedback';
import { useAction } from './use-action';

/** Props of a confirmation dialog. */
export interface ConfirmProps {
  readonly title: string;
  readonly children: ReactNode;
  readonly confirmLabel: string;
  readonly danger?: boolean;
  readonly onConfirm: () => Promise<void>;
  readonly onClose: () => void;
}

/** Asks before a consequential action; shows the action's error in place if it fails. */
export function ConfirmDialog({ title, children, confirmLabel, danger, onConfirm, onClose }: ConfirmProps) {
  const { busy, error, run } = useAction();
  const confirm = () =>
    run(async () => {
      await onConfirm();
      onClose();
    });
  return (
    <Dialog
      title={title}
      onClose={onClose}
      size="small"
      footer={
        <>
          <button type="button" className="btn" onClick={onClose}>
            Cancel
          </button>
          <button type="button" className={danger ? 'btn btn-danger' : 'btn btn-primary'} onClick={confirm} disabled={busy} data-autofocus>
            {busy ? 'Working…' : confirmLabel}
          </button>
        </>
      }
    >
      {children}
      {error ? <ErrorNotice message={describeError(error)} /> : null}
    </Dialog>
  );
}
