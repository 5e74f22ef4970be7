import { Editor, Element, Node, Range, Transforms, type Descendant } from 'slate';
import type { BlockElement, BlockImage, HeadingLevel, Mark } from './blocks-types';

/** The block styles the style menu offers. */
export type BlockStyle = 'paragraph' | 'heading-1' | 'heading-2' | 'heading-3' | 'heading-4' | 'heading-5' | 'heading-6' | 'quote' | 'code';

const isBlock = (editor: Editor) => (n: unknown): n is BlockElement => Element.isElement(n) && !editor.isInline(n);

/** Makes links inline and images void, as Strapi's format needs; a link whose text is deleted goes with it. */
export function withBlocks(editor: Editor): Editor {
  const { isInline, isVoid, normalizeNode } = editor;
  editor.isInline = (element) => element.type === 'link' || isInline(element);
  editor.isVoid = (element) => element.type === 'image' || isVoid(element);
  editor.normalizeNode = (entry, options) => {
    const [node, path] = entry;
    if (Element.isElement(node) && node.type === 'link' && Node.string(node) === '') {
      Transforms.removeNodes(editor, { at: path });
      return;
    }
    normalizeNode(entry, options);
  };
  return editor;
}

/** True when the mark is on at the selection. */
export function isMarkActive(editor: Editor, mark: Mark): boolean {
  return Editor.marks(editor)?.[mark] === true;
}

/** Turns a text mark on or off at the selection. */
export function toggleMark(editor: Editor, mark: Mark): void {
  if (isMarkActive(editor, mark)) Editor.removeMark(editor, mark);
  else Editor.addMark(editor, mark, true);
}

/** The style of the block holding the selection. */
export function currentStyle(editor: Editor): BlockStyle | 'list' {
  const [entry] = Editor.nodes(editor, { match: (n) => isBlock(editor)(n) && n.type !== 'list', mode: 'lowest' });
  const node = entry?.[0];
  if (!node || !Element.isElement(node)) return 'paragraph';
  if (node.type === 'heading') return `heading-${node.level}`;
  if (node.type === 'quote' || node.type === 'code') return node.type;
  if (node.type === 'list-item') return 'list';
  return 'paragraph';
}

/** The list format around the selection, if any. */
export function currentList(editor: Editor): 'ordered' | 'unordered' | null {
  const [entry] = Editor.nodes(editor, { match: (n) => Element.isElement(n) && n.type === 'list', mode: 'lowest' });
  const node = entry?.[0];
  return node && Element.isElement(node) && node.type === 'list' ? node.format : null;
}

function unwrapLists(editor: Editor): void {
  Transforms.unwrapNodes(editor, { match: (n) => Element.isElement(n) && n.type === 'list', split: true, mode: 'all' });
}

/** Sets the selected blocks to a paragraph, heading, quote or code block (leaving any list). */
export function setStyle(editor: Editor, style: BlockStyle): void {
  Editor.withoutNormalizing(editor, () => {
    unwrapLists(editor);
    const match = (n: unknown) => isBlock(editor)(n) && Element.isElement(n) && n.type !== 'image';
    if (style.startsWith('heading-')) {
      Transforms.unsetNodes(editor, 'language', { match });
      const level = Number(style.slice(8));
      const safe: HeadingLevel = level === 1 || level === 2 || level === 3 || level === 4 || level === 5 || level === 6 ? level : 2;
      Transforms.setNodes(editor, { type: 'heading', level: safe }, { match });
    } else if (style === 'code') {
      // Strapi's code block starts as plain text.
      Transforms.unsetNodes(editor, 'level', { match });
      const code: Partial<BlockElement> = { type: 'code', language: 'plaintext' };
      // Blocks already in code keep their language.
      const notCode = (n: Node): boolean => match(n) && !(Element.isElement(n) && n.type === 'code');
      Transforms.setNodes(editor, code, { match: notCode });
    } else if (style === 'quote' || style === 'paragraph') {
      Transforms.unsetNodes(editor, ['level', 'language'], { match });
      Transforms.setNodes(editor, { type: style }, { match });
    }
  });
}

/** Turns the selected blocks into a list of the format, or back into paragraphs if already one. */
export function toggleList(editor: Editor, format: 'ordered' | 'unordered'): void {
  const active = currentList(editor) === format;
  Editor.withoutNormalizing(editor, () => {
    unwrapLists(editor);
    const match = (n: unknown) => isBlock(editor)(n) && Element.isElement(n) && n.type !== 'image' && n.type !== 'list';
    if (active) {
      Transforms.setNodes(editor, { type: 'paragraph' }, { match });
      return;
    }
    Transforms.unsetNodes(editor, ['level', 'language'], { match });
    Transforms.setNodes(editor, { type: 'list-item' }, { match });
    const list: BlockElement = { type: 'list', format, children: [] };
    Transforms.wrapNodes(editor, list, { match: (n) => Element.isElement(n) && n.type === 'list-item' });
  });
}

/** The link around the selection, if any. */
export function currentLink(editor: Editor): string | null {
  const [entry] = Editor.nodes(editor, { match: (n) => Element.isElement(n) && n.type === 'link' });
  const node = entry?.[0];
  return node && Element.isElement(node) && node.type === 'link' ? node.url : null;
}

/** Links the selection to `url` (or inserts the URL as linked text when nothing is selected); an empty URL removes the link. */
export function setLink(editor: Editor, url: string, selection: Range | null): void {
  if (selection) Transforms.select(editor, selection);
  Transforms.unwrapNodes(editor, { match: (n) => Element.isElement(n) && n.type === 'link' });
  if (url === '') return;
  const collapsed = !editor.selection || Range.isCollapsed(editor.selection);
  if (collapsed) {
    const link: Descendant = { type: 'link', url, children: [{ type: 'text', text: url }] };
    Transforms.insertNodes(editor, link);
  } else {
    const link: BlockElement = { type: 'link', url, children: [] };
    Transforms.wrapNodes(editor, link, { split: true });
    Transforms.collapse(editor, { edge: 'end' });
  }
}

/** Inserts an image block (and a paragraph after it, so typing can go on). */
export function insertImage(editor: Editor, image: BlockImage, selection: Range | null): void {
  if (selection) Transforms.select(editor, selection);
  const nodes: Descendant[] = [
    { type: 'image', image, children: [{ type: 'text', text: '' }] },
    { type: 'paragraph', children: [{ type: 'text', text: '' }] },
  ];
  Transforms.insertNodes(editor, nodes);
}
