import type { Descendant } from 'slate';
import { isRecord } from '../../../api/decode';
import type { BlockElement, BlockText, HeadingLevel } from './blocks-types';

const MARKS = ['bold', 'italic', 'underline', 'strikethrough', 'code'] as const;
const emptyText = (): BlockText => ({ type: 'text', text: '' });

/** One empty paragraph: what an empty editor holds. */
export function emptyBlocks(): Descendant[] {
  return [{ type: 'paragraph', children: [emptyText()] }];
}

function readText(raw: Record<string, unknown>): BlockText {
  const text: BlockText = { type: 'text', text: typeof raw.text === 'string' ? raw.text : '' };
  for (const mark of MARKS) if (raw[mark] === true) text[mark] = true;
  return text;
}

function readChildren(raw: unknown): Descendant[] {
  const list = Array.isArray(raw) ? raw.filter((n) => !isEmptyLink(n)).map(readNode).filter((n): n is Descendant => n !== null) : [];
  return list.length > 0 ? list : [emptyText()];
}

function level(v: unknown): HeadingLevel {
  return v === 1 || v === 2 || v === 3 || v === 4 || v === 5 || v === 6 ? v : 2;
}

function readElement(raw: Record<string, unknown>): BlockElement | null {
  const children = readChildren(raw.children);
  switch (raw.type) {
    case 'paragraph':
    case 'quote':
    case 'list-item':
      return { type: raw.type, children };
    case 'heading':
      return { type: 'heading', level: level(raw.level), children };
    case 'code':
      return typeof raw.language === 'string' ? { type: 'code', language: raw.language, children } : { type: 'code', children };
    case 'list': {
      const format = raw.format === 'ordered' ? 'ordered' : 'unordered';
      // Strapi's nested lists carry their depth: kept so a round trip does not lose it.
      return typeof raw.indentLevel === 'number' ? { type: 'list', format, indentLevel: raw.indentLevel, children } : { type: 'list', format, children };
    }
    case 'link':
      return { type: 'link', url: typeof raw.url === 'string' ? raw.url : '', children };
    case 'image':
      return isRecord(raw.image) && typeof raw.image.url === 'string' ? { type: 'image', image: { ...raw.image, url: raw.image.url }, children: [emptyText()] } : null;
    default:
      return null;
  }
}

function readNode(raw: unknown): Descendant | null {
  if (!isRecord(raw)) return null;
  if (typeof raw.text === 'string') return readText(raw);
  return readElement(raw);
}

/** Reads a stored blocks value (Strapi's JSON) into editor nodes; anything unknown is dropped. */
export function readBlocks(value: unknown): Descendant[] {
  if (!Array.isArray(value)) return emptyBlocks();
  const nodes = value.map(readNode).filter((n): n is Descendant => n !== null && !('text' in n));
  return nodes.length > 0 ? nodes : emptyBlocks();
}

function isBlank(nodes: readonly unknown[]): boolean {
  if (nodes.length !== 1) return false;
  const [only] = nodes;
  if (!isRecord(only) || only.type !== 'paragraph' || !Array.isArray(only.children)) return false;
  return only.children.every((c: unknown) => isRecord(c) && c.text === '');
}

/** A link without text: invisible and unclickable, so never kept (Strapi's editor drops it too). */
function isEmptyLink(node: unknown): boolean {
  return isRecord(node) && node.type === 'link' && (!Array.isArray(node.children) || node.children.every((c: unknown) => isRecord(c) && c.text === ''));
}

function normalizeNode(node: unknown): unknown {
  if (!isRecord(node)) return node;
  if (typeof node.text === 'string') return { ...node, type: 'text' };
  const children = Array.isArray(node.children) ? node.children.filter((c) => !isEmptyLink(c)).map(normalizeNode) : [];
  return { ...node, children: children.length > 0 ? children : [{ type: 'text', text: '' }] };
}

/** Editor nodes as stored: every text leaf typed `text`, links without text left out; a blank editor is null. */
export function normalizeBlocks(nodes: readonly unknown[]): unknown[] | null {
  if (nodes.length === 0 || isBlank(nodes)) return null;
  return nodes.map(normalizeNode);
}
