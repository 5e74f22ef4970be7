import { useMemo, useState, type KeyboardEvent } from 'react';
import { createEditor, type Descendant, type Range } from 'slate';
import { withHistory } from 'slate-history';
import { Editable, Slate, withReact } from 'slate-react';
import { Dialog } from '../../../components/dialog';
import { Field } from '../../../components/field';
import type { MediaFile } from '../../../api/types';
import { MediaPickerDialog } from '../../media/media-picker-dialog';
import { currentLink, insertImage, setLink, toggleMark, withBlocks } from './blocks-commands';
import { BlockElementView, BlockLeafView } from './blocks-elements';
import { handleBlockKey } from './blocks-keys';
import { BlocksToolbar } from './blocks-toolbar';
import { readBlocks } from './blocks-value';

/** Props of the blocks editor. */
export interface BlocksEditorProps {
  readonly id: string;
  readonly label: string;
  readonly value: unknown;
  readonly onChange: (nodes: Descendant[]) => void;
  readonly describedBy?: string | undefined;
  readonly invalid?: boolean;
}

const SHORTCUTS: Record<string, 'bold' | 'italic' | 'underline'> = { b: 'bold', i: 'italic', u: 'underline' };

function LinkDialog({ initial, onApply, onClose }: { readonly initial: string; readonly onApply: (url: string) => void; readonly onClose: () => void }) {
  const [url, setUrl] = useState(initial);
  return (
    <Dialog
      title={initial ? 'Edit link' : 'Add a link'}
      onClose={onClose}
      size="small"
      footer={
        <>
          {initial ? (
            <button type="button" className="btn btn-danger-ghost" onClick={() => onApply('')}>
              Remove link
            </button>
          ) : null}
          <span className="spacer" />
          <button type="button" className="btn" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" form="link-form" className="btn btn-primary">
            Apply
          </button>
        </>
      }
    >
      <form
        id="link-form"
        onSubmit={(e) => {
          e.preventDefault();
          onApply(url.trim());
        }}
      >
        <Field id="link-url" label="Link address">
          <input id="link-url" type="url" value={url} onChange={(e) => setUrl(e.target.value)} placeholder="https://…" data-autofocus />
        </Field>
      </form>
    </Dialog>
  );
}

/** Strapi's blocks rich text: paragraphs, headings, lists, quotes, code, links, images and text marks. */
export function BlocksEditor({ id, label, value, onChange, describedBy, invalid }: BlocksEditorProps) {
  const editor = useMemo(() => withBlocks(withHistory(withReact(createEditor()))), []);
  // Slate reads its value once; the form remounts the editor when another document is loaded.
  const [initialValue] = useState(() => readBlocks(value));
  const [dialog, setDialog] = useState<{ kind: 'link' | 'image'; selection: Range | null } | null>(null);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (handleBlockKey(editor, event)) return;
    if (!(event.ctrlKey || event.metaKey)) return;
    const mark = SHORTCUTS[event.key.toLowerCase()];
    if (mark) {
      event.preventDefault();
      toggleMark(editor, mark);
    }
  };
  const close = () => setDialog(null);

  return (
    <div className={invalid ? 'blk blk-invalid' : 'blk'} data-testid={`blocks-${id}`}>
      <Slate editor={editor} initialValue={initialValue} onValueChange={onChange}>
        <BlocksToolbar label={label} onLink={() => setDialog({ kind: 'link', selection: editor.selection })} onImage={() => setDialog({ kind: 'image', selection: editor.selection })} />
        <Editable
          id={id}
          className="blk-content"
          aria-label={label}
          aria-describedby={describedBy}
          aria-invalid={invalid}
          renderElement={BlockElementView}
          renderLeaf={BlockLeafView}
          onKeyDown={onKeyDown}
          placeholder="Write here…"
          spellCheck
        />
      </Slate>
      {dialog?.kind === 'link' ? (
        <LinkDialog
          initial={currentLink(editor) ?? ''}
          onClose={close}
          onApply={(url) => {
            setLink(editor, url, dialog.selection);
            close();
          }}
        />
      ) : null}
      {dialog?.kind === 'image' ? (
        <MediaPickerDialog
          multiple={false}
          allowedTypes={['images']}
          onClose={close}
          onPick={(files: MediaFile[]) => {
            const [file] = files;
            // Strapi's image block holds the whole file object.
            if (file) insertImage(editor, { ...file.raw, url: file.url, name: file.name, alternativeText: file.alternativeText ?? file.name }, dialog.selection);
            close();
          }}
        />
      ) : null}
    </div>
  );
}
