import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bodyOf, bodyText } from '../../server/webhooks/send.js';

/**
 * The dispatcher builds each delivery's body from the payload text the outbox stored, without
 * parsing it: the bytes must be those of Strapi's `JSON.stringify({ event, createdAt, ...payload })`.
 */
describe('webhook body from the stored payload text', () => {
  const at = new Date('2026-11-27T02:03:04.567Z');

  it('is the body bodyOf builds from the parsed payload, for entry and media payloads of any content', () => {
    const payload = fc.record(
      {
        model: fc.string(),
        uid: fc.string(),
        entry: fc.dictionary(fc.string(), fc.jsonValue()),
        media: fc.dictionary(fc.string(), fc.jsonValue()),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(fc.constantFrom('entry.create', 'entry.update', 'media.delete', 'trigger-test'), payload, (event, p) => {
        expect(bodyText(event, at, JSON.stringify(p))).toBe(bodyOf(event, at, p));
      }),
      { numRuns: 500 },
    );
  });

  it('keeps the key order event, createdAt, then the payload; an empty payload gives the two keys alone', () => {
    expect(bodyText('entry.update', at, '{"model":"tag","uid":"api::tag.tag","entry":{"id":1}}')).toBe(
      '{"event":"entry.update","createdAt":"2026-11-27T02:03:04.567Z","model":"tag","uid":"api::tag.tag","entry":{"id":1}}',
    );
    expect(bodyText('trigger-test', at, '{}')).toBe('{"event":"trigger-test","createdAt":"2026-11-27T02:03:04.567Z"}');
  });
});
