import { describe, expect, it } from 'vitest';
import { createResponseCache } from '../../server/cache/response-cache.js';

/** A change stamp the test moves by hand, as writes move the database's. */
function stampSource() {
  let n = 0;
  return { changeStamp: () => `s${n}`, write: () => void n++ };
}

describe('response cache', () => {
  it('serves an entry only while the change stamp is the one its data was read under', () => {
    const source = stampSource();
    const cache = createResponseCache({ changeStamp: source.changeStamp, limits: { maxBytes: 1000, maxEntryBytes: 100 } });
    const stamp = cache.stamp() as string;
    cache.set('/api/a', stamp, '{"a":1}');
    expect(cache.get('/api/a', cache.stamp() as string)).toEqual({ body: Buffer.from('{"a":1}') });
    source.write();
    expect(cache.get('/api/a', cache.stamp() as string)).toBeUndefined();
    expect(cache.size()).toEqual({ entries: 0, bytes: 0 });
  });

  it('refuses to store an answer computed across a write', () => {
    const source = stampSource();
    const cache = createResponseCache({ changeStamp: source.changeStamp, limits: { maxBytes: 1000, maxEntryBytes: 100 } });
    const before = cache.stamp() as string;
    source.write();
    cache.set('/api/a', before, '{"old":true}');
    expect(cache.get('/api/a', cache.stamp() as string)).toBeUndefined();
    expect(cache.get('/api/a', before)).toBeUndefined();
  });

  it('caches nothing when the database cannot tell its changes', () => {
    const cache = createResponseCache({ changeStamp: () => null, limits: { maxBytes: 1000, maxEntryBytes: 100 } });
    expect(cache.stamp()).toBeNull();
    cache.set('/api/a', 'x', '{}');
    expect(cache.size().entries).toBe(0);
  });

  it('returns the bytes it stores, and the bytes of an answer it may not store', () => {
    const source = stampSource();
    const cache = createResponseCache({ changeStamp: source.changeStamp, limits: { maxBytes: 1000, maxEntryBytes: 100 } });
    const stamp = cache.stamp() as string;
    expect(cache.set('/api/a', stamp, '{"name":"Åland"}').toString('utf8')).toBe('{"name":"Åland"}');
    source.write();
    expect(cache.set('/api/b', stamp, '{"late":true}').toString('utf8')).toBe('{"late":true}');
    expect(cache.get('/api/b', cache.stamp() as string)).toBeUndefined();
  });

  it('counts bytes, not characters', () => {
    const source = stampSource();
    const cache = createResponseCache({ changeStamp: source.changeStamp, limits: { maxBytes: 1000, maxEntryBytes: 100 } });
    cache.set('/api/a', cache.stamp() as string, '"ÅÅ"');
    expect(cache.size()).toEqual({ entries: 1, bytes: 6 });
  });

  it('evicts the least recently used entries past maxBytes and skips entries past maxEntryBytes', () => {
    const source = stampSource();
    const cache = createResponseCache({ changeStamp: source.changeStamp, limits: { maxBytes: 20, maxEntryBytes: 12 } });
    const s = cache.stamp() as string;
    cache.set('a', s, '0123456789');
    cache.set('b', s, '0123456789');
    expect(cache.get('a', s)).toBeDefined();
    cache.set('c', s, '0123456789');
    expect(cache.get('b', s)).toBeUndefined();
    expect(cache.get('a', s)).toBeDefined();
    expect(cache.get('c', s)).toBeDefined();
    cache.set('big', s, '0123456789abc');
    expect(cache.get('big', s)).toBeUndefined();
    expect(cache.size()).toEqual({ entries: 2, bytes: 20 });
  });
});
