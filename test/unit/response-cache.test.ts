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

  it('looks a request up once: the route reuses the miss the front door met, keyed the same way', async () => {
    const source = stampSource();
    let stampReads = 0;
    const changeStamp = () => (stampReads++, source.changeStamp());
    const cache = createResponseCache({ changeStamp, limits: { maxBytes: 1000, maxEntryBytes: 100 } });
    const registry = {};
    const request = {};
    const args = { request, callerKey: 'public', registry, v4: false, url: '/api/articles?sort=title' };
    stampReads = 0;
    const front = await cache.read(args);
    expect(front.hit).toBeUndefined();
    expect(stampReads).toBe(1);
    // The route's read of the same request: the same slot, no second stamp read or lookup.
    expect(await cache.read({ ...args })).toBe(front);
    expect(stampReads).toBe(1);
    expect(front.store('[1]').toString()).toBe('[1]');
    // The next request with the same key is a hit; one keyed differently is looked up afresh.
    expect((await cache.read({ ...args, request: {} })).hit?.toString()).toBe('[1]');
    expect((await cache.read({ ...args, callerKey: 'token:1' })).hit).toBeUndefined();
    expect((await cache.read({ ...args, request: {}, v4: true })).hit).toBeUndefined();
    expect((await cache.read({ ...args, request: {}, registry: {} })).hit).toBeUndefined();
  });

  it('reads nothing for a caller without a cacheable permission set, or without a change stamp', async () => {
    const cache = createResponseCache({ changeStamp: () => 's', limits: { maxBytes: 1000, maxEntryBytes: 100 } });
    const args = { request: {}, callerKey: undefined, registry: {}, v4: false, url: '/api/a' };
    (await cache.read(args)).store('{}');
    expect(cache.size().entries).toBe(0);
    expect(cache.enabled).toBe(true);
    const off = createResponseCache({ changeStamp: () => null, limits: { maxBytes: 1000, maxEntryBytes: 100 } });
    expect(off.enabled).toBe(false);
    (await off.read({ ...args, callerKey: 'public' })).store('{}');
    expect(off.size().entries).toBe(0);
  });

  it('with a stamp read from the database (PostgreSQL), reads it afresh for each lookup and never serves across a move', async () => {
    let stored = 0;
    let reads = 0;
    let last: string | null = null;
    // The database's stamp, read per lookup; `last` is what the latest read returned.
    const readStamp = async () => (reads++, (last = `s${stored}`));
    const cache = createResponseCache({ changeStamp: () => last, readStamp, limits: { maxBytes: 1000, maxEntryBytes: 100 } });
    expect(cache.enabled).toBe(true);
    const args = { callerKey: 'public', registry: {}, v4: false, url: '/api/a' };
    const miss = await cache.read({ ...args, request: {} });
    expect(miss.hit).toBeUndefined();
    miss.store('[1]');
    expect((await cache.read({ ...args, request: {} })).hit?.toString()).toBe('[1]');
    expect(reads).toBe(2);
    // Another process commits a write: the next lookup's read sees the stamp move.
    stored++;
    expect((await cache.read({ ...args, request: {} })).hit).toBeUndefined();
    // An answer whose lookup read an older stamp than the latest read is not stored.
    const slow = await cache.read({ ...args, request: {}, url: '/api/b' });
    stored++;
    await cache.read({ ...args, request: {}, url: '/api/c' });
    slow.store('[2]');
    expect((await cache.read({ ...args, request: {}, url: '/api/b' })).hit).toBeUndefined();
  });
});
