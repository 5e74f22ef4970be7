import { yup } from './yup-setup.js';

/**
 * The rich-text `blocks` format Strapi accepts: a list of block nodes (paragraph, heading, quote,
 * list, code, image), each holding inline text and link nodes. Written from Strapi's documented format.
 */
const UNSAFE_PROTOCOLS = new Set(['javascript:', 'vbscript:', 'data:']);

function isSafeLink(link: unknown): boolean {
  if (typeof link !== 'string') return false;
  try {
    const url = new URL(link.startsWith('/') ? `https://example.invalid${link}` : link);
    return !UNSAFE_PROTOCOLS.has(url.protocol);
  } catch {
    return false;
  }
}

const text = yup.object().shape({
  type: yup.string().equals(['text']).required(),
  text: yup.string().test('is-valid-text', 'Text must be defined with at least an empty string', (v: unknown) => typeof v === 'string'),
  bold: yup.boolean(),
  italic: yup.boolean(),
  underline: yup.boolean(),
  strikethrough: yup.boolean(),
  code: yup.boolean(),
});

const link = yup.object().shape({
  type: yup.string().equals(['link']).required(),
  url: yup.string().test('invalid-url', 'Please specify a valid link.', (v) => isSafeLink(v ?? '')),
  children: yup.array().of(text).required(),
});

/** yup 0.32's typings do not accept lazy schemas as array items, though yup does: one named cast. */
const lazy = (pick: (value: unknown) => yup.AnySchema): yup.AnySchema => yup.lazy(pick) as unknown as yup.AnySchema;

const invalid = (message: string) => yup.mixed().test('invalid-type', message, () => false);
const typeOf = (v: unknown): unknown => (typeof v === 'object' && v !== null ? (v as { type?: unknown }).type : undefined);

// Every schema a lazy picks is built once here, not per node validated (yup schemas are immutable).
const invalidInline = invalid('Inline node must be Text or Link');
const inline = lazy((v: unknown) => {
  const type = typeOf(v);
  return type === 'text' ? text : type === 'link' ? link : invalidInline;
});

const withChildren = (type: string, label: string) =>
  yup.object().shape({
    type: yup.string().equals([type]).required(),
    children: yup.array().of(inline).min(1, `${label} node children must have at least one Text or Link node`).required(),
  });

const listItem = yup.object().shape({
  type: yup.string().equals(['list-item']).required(),
  children: yup.array().of(inline).required(),
});

// list and listChild refer to each other: listChild reads list only when a value is validated, after both exist.
const invalidListChild = invalid('Inline node must be list-item or list');
const listChild = lazy((v: unknown) => {
  const type = typeOf(v);
  return type === 'list' ? list : type === 'list-item' ? listItem : invalidListChild;
});
const list: yup.AnyObjectSchema = yup.object().shape({
  type: yup.string().equals(['list']).required(),
  format: yup.string().equals(['ordered', 'unordered']).required(),
  children: yup.array().of(listChild).min(1, 'List node children must have at least one ListItem or ListNode').required(),
});

const image = yup.object().shape({
  type: yup.string().equals(['image']).required(),
  image: yup.object().shape({
    name: yup.string().required(),
    alternativeText: yup.string().nullable(),
    url: yup.string().required(),
    caption: yup.string().nullable(),
    width: yup.number().required(),
    height: yup.number().required(),
    formats: yup.object().nullable(),
    hash: yup.string().required(),
    ext: yup.string().required(),
    mime: yup.string().required(),
    size: yup.number().required(),
    previewUrl: yup.string().nullable(),
    provider: yup.string().required(),
    provider_metadata: yup.mixed().nullable(),
    createdAt: yup.string().required(),
    updatedAt: yup.string().required(),
  }),
  children: yup.array().of(inline).required(),
});

const code = yup.object().shape({
  type: yup.string().equals(['code']).required(),
  language: yup.string().nullable(),
  children: yup.array().of(text).min(1, 'Quote node children must have at least one Text or Link node').required(),
});

const paragraph = withChildren('paragraph', 'Paragraph');
const heading = withChildren('heading', 'Heading').shape({ level: yup.number().oneOf([1, 2, 3, 4, 5, 6]).required() });
const quote = withChildren('quote', 'Quote');
const invalidBlock = invalid('Block node is of invalid type');

const block = lazy((v: unknown) => {
  switch (typeOf(v)) {
    case 'paragraph':
      return paragraph;
    case 'heading':
      return heading;
    case 'quote':
      return quote;
    case 'list':
      return list;
    case 'image':
      return image;
    case 'code':
      return code;
    default:
      return invalidBlock;
  }
});

/** A fresh `blocks` schema (yup schemas are immutable, but callers chain onto it). */
export const blocksSchema = () => yup.array().of(block);

/**
 * Whether `blocksSchema()` surely accepts a value, decided without yup: true only for values in
 * the exact written form (every node a plain object of known keys, every field of its exact type);
 * anything else (yup's casts, unknown keys, errors) answers false and is left to yup. A check whose
 * result is not used (the publish check) skips yup for values this accepts.
 */
export function surelyValidBlocks(value: unknown): boolean {
  return Array.isArray(value) && value.every(surelyValidBlock);
}

type Node = Record<string, unknown>;

const asNode = (v: unknown): Node | null => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Node) : null);
const hasOnly = (node: Node, keys: ReadonlySet<string>): boolean => Object.keys(node).every((k) => keys.has(k));
const optional = (v: unknown, ok: (x: unknown) => boolean): boolean => v === undefined || ok(v);
const isString = (v: unknown): boolean => typeof v === 'string';
const isFilled = (v: unknown): boolean => typeof v === 'string' && v !== '';
const isNumber = (v: unknown): boolean => typeof v === 'number' && Number.isFinite(v);
const nullOr = (ok: (x: unknown) => boolean) => (v: unknown): boolean => v === null || ok(v);
const listOf = (v: unknown, ok: (x: unknown) => boolean, min: number): boolean => Array.isArray(v) && v.length >= min && v.every(ok);

const TEXT_KEYS = new Set(['type', 'text', 'bold', 'italic', 'underline', 'strikethrough', 'code']);
const MARKS = ['bold', 'italic', 'underline', 'strikethrough', 'code'];
const LINK_KEYS = new Set(['type', 'url', 'children']);
const CHILDREN_KEYS = new Set(['type', 'children']);
const HEADING_KEYS = new Set(['type', 'children', 'level']);
const LIST_KEYS = new Set(['type', 'format', 'children']);
const CODE_KEYS = new Set(['type', 'language', 'children']);
const IMAGE_KEYS = new Set(['type', 'image', 'children']);
const FILE_KEYS = new Set(['name', 'alternativeText', 'url', 'caption', 'width', 'height', 'formats', 'hash', 'ext', 'mime', 'size', 'previewUrl', 'provider', 'provider_metadata', 'createdAt', 'updatedAt']);
const FILE_FILLED = ['name', 'url', 'hash', 'ext', 'mime', 'provider', 'createdAt', 'updatedAt'];
const FILE_NULLABLE = ['alternativeText', 'caption', 'previewUrl'];

function surelyValidText(v: unknown): boolean {
  const node = asNode(v);
  return node !== null && node.type === 'text' && typeof node.text === 'string' && hasOnly(node, TEXT_KEYS) && MARKS.every((m) => optional(node[m], (x) => typeof x === 'boolean'));
}

function surelyValidInline(v: unknown): boolean {
  const node = asNode(v);
  if (node === null) return false;
  if (node.type === 'text') return surelyValidText(node);
  return node.type === 'link' && hasOnly(node, LINK_KEYS) && typeof node.url === 'string' && isSafeLink(node.url) && listOf(node.children, surelyValidText, 0);
}

/** yup reads each key of `formats` in an object of no fields: a key Object.prototype has makes it throw. */
const isPlainFormats = (v: unknown): boolean => {
  const formats = asNode(v);
  return formats !== null && Object.keys(formats).every((k) => !(k in Object.prototype));
};

function surelyValidFile(v: unknown): boolean {
  const file = asNode(v);
  if (file === null || !hasOnly(file, FILE_KEYS)) return false;
  if (!FILE_FILLED.every((k) => isFilled(file[k])) || !FILE_NULLABLE.every((k) => optional(file[k], nullOr(isString)))) return false;
  return isNumber(file.width) && isNumber(file.height) && isNumber(file.size) && optional(file.formats, nullOr(isPlainFormats));
}

function surelyValidListChild(v: unknown): boolean {
  const node = asNode(v);
  if (node === null) return false;
  if (node.type === 'list-item') return hasOnly(node, CHILDREN_KEYS) && listOf(node.children, surelyValidInline, 0);
  return node.type === 'list' && surelyValidBlock(node);
}

function surelyValidBlock(v: unknown): boolean {
  const node = asNode(v);
  if (node === null) return false;
  switch (node.type) {
    case 'paragraph':
    case 'quote':
      return hasOnly(node, CHILDREN_KEYS) && listOf(node.children, surelyValidInline, 1);
    case 'heading':
      return hasOnly(node, HEADING_KEYS) && [1, 2, 3, 4, 5, 6].includes(node.level as number) && listOf(node.children, surelyValidInline, 1);
    case 'list':
      return hasOnly(node, LIST_KEYS) && (node.format === 'ordered' || node.format === 'unordered') && listOf(node.children, surelyValidListChild, 1);
    case 'code':
      return hasOnly(node, CODE_KEYS) && optional(node.language, nullOr(isString)) && listOf(node.children, surelyValidText, 1);
    case 'image':
      return hasOnly(node, IMAGE_KEYS) && surelyValidFile(node.image) && listOf(node.children, surelyValidInline, 0);
    default:
      return false;
  }
}
