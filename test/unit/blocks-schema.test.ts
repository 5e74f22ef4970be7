import { afterEach, describe, expect, it, vi } from 'vitest';
import { blocksSchema } from '../../server/documents/blocks-schema.js';
import { yup } from '../../server/documents/yup-setup.js';

const text = (t: string) => ({ type: 'text', text: t });
const body = [
  { type: 'heading', level: 2, children: [text('A heading')] },
  ...[0, 1, 2].map(() => ({ type: 'paragraph', children: [text('One '), { ...text('bold'), bold: true }] })),
  { type: 'quote', children: [text('Quoted')] },
  { type: 'list', format: 'unordered', children: [0, 1].map(() => ({ type: 'list-item', children: [text('Item')] })) },
];

/** Builder methods yup calls only while a schema is being made, never while a value is validated. */
const objectProto = Object.getPrototypeOf(yup.object()) as { shape: (...args: never[]) => unknown };
const baseProto = Object.getPrototypeOf(yup.mixed()) as { test: (...args: never[]) => unknown };

afterEach(() => vi.restoreAllMocks());

describe('blocks validation schema', () => {
  it('builds no schema per node: every node kind is validated with a schema made once', async () => {
    const schema = blocksSchema();
    const shape = vi.spyOn(objectProto, 'shape');
    const test = vi.spyOn(baseProto, 'test');
    await expect(schema.validate(body, { abortEarly: false })).resolves.toEqual(body);
    await expect(schema.validate([{ type: 'nope' }, { type: 'paragraph', children: [{ type: 'bad' }] }], { abortEarly: false })).rejects.toMatchObject({
      errors: ['Block node is of invalid type', 'Inline node must be Text or Link'],
    });
    expect(shape).not.toHaveBeenCalled();
    expect(test).not.toHaveBeenCalled();
  });
});
