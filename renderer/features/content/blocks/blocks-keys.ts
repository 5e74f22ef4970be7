import type { KeyboardEvent } from 'react';
import { Editor, Element, Node, Path, Range, Text, Transforms, type NodeEntry } from 'slate';
import { ReactEditor } from 'slate-react';
import type { BlockElement } from './blocks-types';

// Enter and Backspace as Strapi's blocks editor handles them (BlocksContent's handleEnter and
// each block's handleEnterKey / handleBackspaceKey), so the saved JSON is the same.

const MARKS = ['bold', 'italic', 'underline', 'strikethrough', 'code'] as const;
const emptyParagraph = (): BlockElement => ({ type: 'paragraph', children: [{ type: 'text', text: '' }] });
const ofType =
  (type: BlockElement['type']) =>
  (n: unknown): n is BlockElement =>
    Element.isElement(n) && n.type === type;

/** The lowest block around the selection (not a link). */
function blockAbove(editor: Editor): NodeEntry<BlockElement> | undefined {
  return Editor.above(editor, { match: (n): n is BlockElement => Element.isElement(n) && !editor.isInline(n) });
}

/** A block with one empty text child. */
function isEmptyBlock(node: Element): boolean {
  const [only] = node.children;
  return node.children.length === 1 && Text.isText(only) && only.text === '';
}

/** Paragraphs and headings: the text after the cursor goes to a new paragraph (never a second heading). */
function splitIntoParagraph(editor: Editor): void {
  const block = blockAbove(editor);
  if (!block || !editor.selection) return;
  const [, path] = block;
  const next = Path.next(path);
  if (Editor.isEnd(editor, editor.selection.anchor, path)) {
    // Nothing after the cursor: a fresh paragraph, so the marks typed last do not carry over.
    Transforms.insertNodes(editor, emptyParagraph(), { at: next, select: true });
    return;
  }
  Transforms.splitNodes(editor, { always: true });
  Transforms.unsetNodes(editor, ['level', 'language'], { at: next });
  Transforms.setNodes(editor, { type: 'paragraph' }, { at: next });
}

/** Quotes and code blocks: Enter adds a line; Enter on an empty last line leaves the block for a paragraph. */
function enterTwiceToExit(editor: Editor): void {
  const block = blockAbove(editor);
  if (!block || !editor.selection) return;
  const [node, path] = block;
  const atEnd = Editor.isEnd(editor, editor.selection.anchor, path);
  const last = node.children.at(-1);
  if (atEnd && Text.isText(last) && last.text.endsWith('\n')) {
    Transforms.delete(editor, { distance: 1, unit: 'character', reverse: true });
    Transforms.insertNodes(editor, emptyParagraph(), { at: Path.next(path), select: true });
    return;
  }
  Transforms.insertText(editor, '\n');
  if (atEnd) for (const mark of MARKS) Editor.removeMark(editor, mark);
}

/** Replaces a list with an empty paragraph and puts the cursor in it. */
function listToParagraph(editor: Editor, listPath: Path): void {
  Transforms.removeNodes(editor, { at: listPath });
  Transforms.insertNodes(editor, emptyParagraph(), { at: listPath, select: true });
}

/** Lists: Enter adds an item; Enter on an empty item leaves the list (or its nested level). */
function enterInList(editor: Editor): void {
  const item = Editor.above(editor, { match: ofType('list-item') });
  if (!item || !editor.selection) return;
  const [node, itemPath] = item;
  const [list, listPath] = Editor.parent(editor, itemPath);
  const empty = isEmptyBlock(node);
  const nested = Editor.above(editor, { at: listPath, match: ofType('list') }) !== undefined;
  if (empty && list.children.length === 1 && !nested) return listToParagraph(editor, listPath);
  if (empty) {
    // Out of the list, splitting it when the item is in the middle; out of a nested list, up one level.
    Transforms.liftNodes(editor, { at: itemPath });
    if (!nested) Transforms.setNodes(editor, { type: 'paragraph' }, { match: ofType('list-item') });
    return;
  }
  const { anchor } = editor.selection;
  if (Editor.isStart(editor, anchor, itemPath)) {
    // At the start of a filled item: an empty item above, the cursor stays with the text.
    Transforms.insertNodes(editor, { type: 'list-item', children: [{ type: 'text', text: '' }] }, { at: itemPath });
    return;
  }
  if (Editor.isEnd(editor, anchor, itemPath)) {
    Transforms.insertNodes(editor, { type: 'list-item', children: [{ type: 'text', text: '' }] }, { at: Path.next(itemPath), select: true });
    return;
  }
  Transforms.splitNodes(editor, { match: ofType('list-item'), always: true });
}

/** Lists: Backspace in the only, empty item removes the list; at the start of the first item makes it a paragraph. */
function backspaceInList(editor: Editor, event: KeyboardEvent<HTMLElement>): void {
  const item = Editor.above(editor, { match: ofType('list-item') });
  if (!item || !editor.selection || !Range.isCollapsed(editor.selection)) return;
  const [node, itemPath] = item;
  const [list, listPath] = Editor.parent(editor, itemPath);
  const nested = Editor.above(editor, { at: listPath, match: ofType('list') }) !== undefined;
  if (list.children.length === 1 && isEmptyBlock(node)) {
    if (nested) return;
    event.preventDefault();
    if (listPath[0] === 0 || editor.children.length === 1) return listToParagraph(editor, listPath);
    // As a Backspace anywhere: the line goes and the cursor ends the block above.
    const above = Editor.end(editor, Path.previous(listPath));
    Transforms.removeNodes(editor, { at: listPath });
    Transforms.select(editor, above);
    return;
  }
  if (itemPath.at(-1) === 0 && Editor.isStart(editor, editor.selection.focus, itemPath)) {
    event.preventDefault();
    Transforms.liftNodes(editor, { at: itemPath });
    if (!nested) Transforms.setNodes(editor, { type: 'paragraph' }, { match: ofType('list-item') });
  }
}

/** Images (void): Enter opens a paragraph below; Backspace removes the image (the only block becomes an empty paragraph). */
function enterOnImage(editor: Editor, path: Path): void {
  Transforms.insertNodes(editor, emptyParagraph(), { at: Path.next(path), select: true });
}
function backspaceOnImage(editor: Editor, event: KeyboardEvent<HTMLElement>, path: Path): void {
  event.preventDefault();
  if (editor.children.length === 1) return listToParagraph(editor, path);
  Transforms.removeNodes(editor, { at: path });
}

/**
 * Slate reads the browser's selection after a throttle (100 ms), so a key pressed right after
 * Home, End or an arrow would act where the cursor was before: read it now, as Slate's own
 * input handling does before an edit. The toolbar does the same before acting on the selection.
 */
export function syncSelection(editor: Editor): void {
  const dom = window.getSelection();
  if (!dom || dom.rangeCount === 0 || !dom.anchorNode || !ReactEditor.hasDOMNode(editor, dom.anchorNode, { editable: true })) return;
  const range = ReactEditor.toSlateRange(editor, dom, { exactMatch: false, suppressThrow: true });
  if (range && !(editor.selection && Range.equals(range, editor.selection))) Transforms.select(editor, range);
}

/** Handles Enter and Backspace in the blocks editor; true when the key was handled. */
export function handleBlockKey(editor: Editor, event: KeyboardEvent<HTMLElement>): boolean {
  if ((event.key !== 'Enter' && event.key !== 'Backspace') || event.ctrlKey || event.metaKey || event.altKey) return false;
  syncSelection(editor);
  if (!editor.selection) return false;
  const topPath = [editor.selection.anchor.path[0] ?? 0];
  const top = Node.has(editor, topPath) ? Node.get(editor, topPath) : null;
  if (!top || !Element.isElement(top)) return false;
  if (event.key === 'Backspace') {
    if (top.type === 'list') backspaceInList(editor, event);
    else if (top.type === 'image') backspaceOnImage(editor, event, topPath);
    return event.isDefaultPrevented();
  }
  event.preventDefault();
  if (event.shiftKey && top.type !== 'image') {
    Transforms.insertText(editor, '\n');
    return true;
  }
  if (!Range.isCollapsed(editor.selection) && top.type !== 'image') Transforms.delete(editor);
  switch (top.type) {
    case 'list':
      enterInList(editor);
      break;
    case 'quote':
    case 'code':
      enterTwiceToExit(editor);
      break;
    case 'image':
      enterOnImage(editor, topPath);
      break;
    default:
      splitIntoParagraph(editor);
  }
  return true;
}
