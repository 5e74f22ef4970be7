import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareUids } from '../../server/schema/registry.js';

const sign = (n: number) => Math.sign(n);

describe('compareUids (the registry order of uids, without ICU at start)', () => {
  it('orders plain uids exactly as localeCompare does, punctuation and digits included', () => {
    const plain = fc.string({ unit: fc.constantFrom(...'_-:.0123456789abcdefghijklmnopqrstuvwxyz'), maxLength: 12 });
    const uid = fc.oneof(plain, plain.map((s) => `api::${s}`), plain.map((s) => `plugin::${s}`), fc.tuple(plain, plain).map(([a, b]) => `${a}.${b}`));
    fc.assert(
      fc.property(uid, uid, (a, b) => {
        expect(sign(compareUids(a, b))).toBe(sign(a.localeCompare(b)));
      }),
      { numRuns: 20_000 },
    );
  });

  it('falls back to localeCompare for any other character (case, accents, spaces)', () => {
    const any = fc.string({ unit: fc.constantFrom(...'aAbB_-.:1é ÉzZ'), maxLength: 8 });
    fc.assert(
      fc.property(any, any, (a, b) => {
        expect(sign(compareUids(a, b))).toBe(sign(a.localeCompare(b)));
      }),
      { numRuns: 5_000 },
    );
  });

  it('sorts the way the registry sorted before (a_b before a-b before a.b before a1 before ab)', () => {
    const uids = ['api::ab.ab', 'api::a1.a1', 'api::a.a', 'api::a-b.a-b', 'api::a_b.a_b', 'plugin::x.x', 'api::a.a'];
    expect([...uids].sort(compareUids)).toEqual([...uids].sort((a, b) => a.localeCompare(b)));
    expect([...uids].sort(compareUids)).toEqual(['api::a_b.a_b', 'api::a-b.a-b', 'api::a.a', 'api::a.a', 'api::a1.a1', 'api::ab.ab', 'plugin::x.x']);
  });
});
