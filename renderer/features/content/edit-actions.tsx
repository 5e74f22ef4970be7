import { useState } from 'react';
import { hasDraftAndPublish, isLocalized } from '../../api/schema';
import type { ContentType } from '../../api/types';
import { ConfirmDialog } from '../../components/confirm-dialog';
import type { Editor } from './use-editor';

/** The id of the edit form, which the save button submits from the header. */
export const EDIT_FORM_ID = 'edit-form';

/** Save, publish, unpublish, discard and delete, as the document's state allows. */
export function EditActions({ type, editor }: { readonly type: ContentType; readonly editor: Editor }) {
  const [confirm, setConfirm] = useState<'discard' | 'delete' | null>(null);
  const drafts = hasDraftAndPublish(type.schema);
  const { entry, busy, dirty } = editor;
  const status = entry?.status ?? 'draft';
  const localized = isLocalized(type.schema) && (entry?.localizations.length ?? 0) > 0;
  return (
    <div className="edit-actions">
      {entry && drafts && status !== 'draft' ? (
        <button type="button" className="btn btn-ghost" onClick={() => void editor.unpublish()} disabled={busy !== null}>
          {busy === 'unpublish' ? 'Unpublishing…' : 'Unpublish'}
        </button>
      ) : null}
      {entry && drafts && status === 'modified' ? (
        <button type="button" className="btn btn-ghost" onClick={() => setConfirm('discard')} disabled={busy !== null}>
          Discard changes
        </button>
      ) : null}
      {entry ? (
        <button type="button" className="btn btn-danger-ghost" onClick={() => setConfirm('delete')} disabled={busy !== null}>
          Delete
        </button>
      ) : null}
      {/* The form's submit button: Enter in a field (and Ctrl+S) saves, as this button does. */}
      <button type="submit" form={EDIT_FORM_ID} className={drafts ? 'btn' : 'btn btn-primary'} disabled={busy !== null || (!dirty && entry !== null)}>
        {busy === 'save' ? 'Saving…' : drafts ? 'Save draft' : 'Save'}
      </button>
      {drafts ? (
        <button type="button" className="btn btn-primary" onClick={() => void editor.publish()} disabled={busy !== null || (status === 'published' && !dirty)}>
          {busy === 'publish' ? 'Publishing…' : 'Publish'}
        </button>
      ) : null}
      {confirm === 'discard' ? (
        <ConfirmDialog title="Discard the draft?" confirmLabel="Discard changes" danger onClose={() => setConfirm(null)} onConfirm={async () => {
            await editor.discard();
          }}>
          <p>The draft goes back to the published version. Changes made since publishing are lost.</p>
        </ConfirmDialog>
      ) : null}
      {confirm === 'delete' ? (
        <DeleteDialog localized={localized} locale={entry?.locale ?? null} onClose={() => setConfirm(null)} onDelete={editor.remove} />
      ) : null}
    </div>
  );
}

function DeleteDialog({ localized, locale, onClose, onDelete }: { readonly localized: boolean; readonly locale: string | null; readonly onClose: () => void; readonly onDelete: (everyLocale: boolean) => Promise<void> }) {
  const [every, setEvery] = useState(false);
  return (
    <ConfirmDialog title="Delete this entry?" confirmLabel="Delete" danger onClose={onClose} onConfirm={() => onDelete(!localized || every)}>
      <p>The entry is deleted permanently, draft and published versions alike.</p>
      {localized ? (
        <div className="check">
          <input id="delete-every-locale" type="checkbox" checked={every} onChange={(e) => setEvery(e.target.checked)} />
          <label htmlFor="delete-every-locale">Delete every locale, not only {locale}</label>
        </div>
      ) : null}
    </ConfirmDialog>
  );
}
