import type { BaseEditor, Descendant } from 'slate';
import type { HistoryEditor } from 'slate-history';
import type { ReactEditor } from 'slate-react';

/** A text leaf of Strapi's blocks format with its marks. */
export interface BlockText {
  type?: 'text';
  text: string;
  bold?: boolean;
  italic?: boolean;
  underline?: boolean;
  strikethrough?: boolean;
  code?: boolean;
}

/** The image a block shows (a media library file). */
export interface BlockImage {
  url: string;
  name?: string;
  alternativeText?: string | null;
  width?: number | null;
  height?: number | null;
  [key: string]: unknown;
}

/** Heading levels. */
export type HeadingLevel = 1 | 2 | 3 | 4 | 5 | 6;

/** Every element of Strapi's blocks format. */
export type BlockElement =
  | { type: 'paragraph'; children: Descendant[] }
  | { type: 'heading'; level: HeadingLevel; children: Descendant[] }
  | { type: 'quote'; children: Descendant[] }
  | { type: 'code'; language?: string; children: Descendant[] }
  | { type: 'list'; format: 'ordered' | 'unordered'; indentLevel?: number; children: Descendant[] }
  | { type: 'list-item'; children: Descendant[] }
  | { type: 'link'; url: string; children: Descendant[] }
  | { type: 'image'; image: BlockImage; children: Descendant[] };

/** The editor with React and history support. */
export type BlocksEditor = BaseEditor & ReactEditor & HistoryEditor;

declare module 'slate' {
  interface CustomTypes {
    Editor: BlocksEditor;
    Element: BlockElement;
    Text: BlockText;
  }
}

/** The marks the toolbar toggles. */
export type Mark = 'bold' | 'italic' | 'underline' | 'strikethrough' | 'code';
