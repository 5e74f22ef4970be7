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
