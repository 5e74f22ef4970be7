import type { MouseEvent } from 'react';
import { ReactEditor, useSlate } from 'slate-react';
import { currentList, currentStyle, isMarkActive, setStyle, toggleList, toggleMark, type BlockStyle } from './blocks-commands';
import { syncSelection } from './blocks-keys';
import type { Mark } from './blocks-types';

const STYLES: readonly { value: BlockStyle; label: string }[] = [
  { value: 'paragraph', label: 'Paragraph' },
  { value: 'heading-1', label: 'Heading 1' },
  { value: 'heading-2', label: 'Heading 2' },
  { value: 'heading-3', label: 'Heading 3' },
  { value: 'heading-4', label: 'Heading 4' },
  { value: 'heading-5', label: 'Heading 5' },
  { value: 'heading-6', label: 'Heading 6' },
  { value: 'quote', label: 'Quote' },
  { value: 'code', label: 'Code block' },
];
const MARKS: readonly { mark: Mark; label: string; text: string }[] = [
  { mark: 'bold', label: 'Bold', text: 'B' },
  { mark: 'italic', label: 'Italic', text: 'I' },
  { mark: 'underline', label: 'Underline', text: 'U' },
  { mark: 'strikethrough', label: 'Strikethrough', text: 'S' },
  { mark: 'code', label: 'Inline code', text: '</>' },
];
const isStyle = (v: string): v is BlockStyle => STYLES.some((s) => s.value === v);

/** The formatting toolbar of a blocks editor: block style, marks, lists, link and image. */
export function BlocksToolbar({ label, onLink, onImage }: { readonly label: string; readonly onLink: () => void; readonly onImage: () => void }) {
  const editor = useSlate();
  const style = currentStyle(editor);
  const list = currentList(editor);
  const refocus = () => ReactEditor.focus(editor);
  // Keeps the focus (and the selection) in the text, and takes the selection the browser shows.
  const keep = (e: MouseEvent) => {
    e.preventDefault();
    syncSelection(editor);
  };
  return (
    <div className="blk-toolbar" role="toolbar" aria-label={`${label} formatting`}>
      <label className="visually-hidden" htmlFor={`${label}-style`}>
        Block style
      </label>
      <select
        id={`${label}-style`}
        className="blk-style"
        onMouseDown={() => syncSelection(editor)}
        onFocus={() => syncSelection(editor)}
        value={style === 'list' ? 'paragraph' : style}
        onChange={(e) => {
          if (!isStyle(e.target.value)) return;
          setStyle(editor, e.target.value);
          // Back to the text, where the cursor was, so typing goes on in the new style.
          refocus();
        }}
      >
        {STYLES.map((s) => (
          <option key={s.value} value={s.value}>
            {s.label}
          </option>
        ))}
      </select>
      {MARKS.map((m) => (
        <button
          key={m.mark}
          type="button"
          className={`btn btn-ghost btn-small blk-mark blk-mark-${m.mark}`}
          aria-label={m.label}
          aria-pressed={isMarkActive(editor, m.mark)}
          onMouseDown={keep}
          onClick={() => {
            toggleMark(editor, m.mark);
            refocus();
          }}
        >
          {m.text}
        </button>
      ))}
      <span className="blk-sep" aria-hidden="true" />
      <button type="button" className="btn btn-ghost btn-small" aria-label="Bulleted list" aria-pressed={list === 'unordered'} onMouseDown={keep} onClick={() => toggleList(editor, 'unordered')}>
        • List
      </button>
      <button type="button" className="btn btn-ghost btn-small" aria-label="Numbered list" aria-pressed={list === 'ordered'} onMouseDown={keep} onClick={() => toggleList(editor, 'ordered')}>
        1. List
      </button>
      <span className="blk-sep" aria-hidden="true" />
      <button type="button" className="btn btn-ghost btn-small" aria-label="Link" onMouseDown={keep} onClick={onLink}>
        Link
      </button>
      <button type="button" className="btn btn-ghost btn-small" aria-label="Image" onMouseDown={keep} onClick={onImage}>
        Image
      </button>
    </div>
  );
}
