import { describe, expect, it } from 'vitest';
import { createCallerMemo } from '../../server/auth/caller-memo.js';
import type { Caller } from '../../server/auth/caller.js';

const caller = (id: number): Caller => ({ kind: 'api-token', id, allows: () => true, cacheKey: `token:${id}` });

function setup(ttlMs = 1000, maxEntries = 10) {
  let stamp = 0;
  let clock = 0;
  const memo = createCallerMemo({ changeStamp: () => `s${stamp}`, now: () => new Date(clock), ttlMs, maxEntries });
  return { memo, write: () => void stamp++, advance: (ms: number) => void (clock += ms) };
}

describe('caller memo', () => {
  it('remembers a credential while nothing is written', () => {
    const { memo, write } = setup();
    const s = memo.stamp() as string;
    memo.set('abc', s, caller(1));
    expect(memo.get('abc', memo.stamp() as string)?.id).toBe(1);
    expect(memo.get('other', memo.stamp() as string)).toBeUndefined();
    write();
    expect(memo.get('abc', memo.stamp() as string)).toBeUndefined();
  });

  it('never remembers a caller resolved across a write (a revocation meanwhile)', () => {
    const { memo, write } = setup();
    const before = memo.stamp() as string;
    write();
    memo.set('abc', before, caller(1));
    expect(memo.get('abc', memo.stamp() as string)).toBeUndefined();
    expect(memo.get('abc', before)).toBeUndefined();
  });

  it('forgets a caller after the time to live, so expiry by the clock is seen', () => {
    const { memo, advance } = setup(1000);
    memo.set('abc', memo.stamp() as string, caller(1));
    advance(999);
    expect(memo.get('abc', memo.stamp() as string)?.id).toBe(1);
    advance(1);
    expect(memo.get('abc', memo.stamp() as string)).toBeUndefined();
  });

  it('holds at most maxEntries credentials', () => {
    const { memo } = setup(1000, 2);
    const s = memo.stamp() as string;
    memo.set('a', s, caller(1));
    memo.set('b', s, caller(2));
    memo.set('c', s, caller(3));
    expect(memo.get('c', s)?.id).toBe(3);
    expect([memo.get('a', s), memo.get('b', s)].filter(Boolean).length).toBeLessThan(2);
  });
});
