import { describe, expect, it } from 'vitest';
import { joined } from '../../server/webhooks/joined.js';

/**
 * The dispatcher's `joined` (webhooks/joined.ts): the claims and acknowledgements its workers ask
 * for in one turn of the event loop run as one statement; an acknowledgement waits (a bounded
 * time) for the other webhooks' answers, so the webhooks an event went to are settled together.
 */

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('joined calls', () => {
  it('runs the calls of one turn once, answering each its own result in order', async () => {
    const runs: number[][] = [];
    const double = joined(async (items: readonly number[]) => {
      runs.push([...items]);
      return items.map((n) => n * 2);
    }).call;
    const first = await Promise.all([double(1), double(2), double(3)]);
    const second = await double(4);
    expect(first).toEqual([2, 4, 6]);
    expect(second).toBe(8);
    expect(runs).toEqual([[1, 2, 3], [4]]);
  });

  it('rejects every call of a run that failed', async () => {
    const failing = joined(async (): Promise<number[]> => {
      throw new Error('locked');
    }).call;
    const results = await Promise.allSettled([failing(1), failing(2)]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
  });

  it('while held, waits for the nudge that releases it, and takes what came meanwhile', async () => {
    const runs: string[][] = [];
    let inFlight = 2;
    const settle = joined(
      async (items: readonly string[]) => {
        runs.push([...items]);
        return items.map(() => undefined);
      },
      () => inFlight > 0,
      10_000,
    );
    const a = settle.call('a');
    await turn();
    await turn();
    expect(runs).toEqual([]);
    inFlight = 1;
    const b = settle.call('b');
    settle.nudge();
    await turn();
    expect(runs).toEqual([]);
    inFlight = 0;
    const c = settle.call('c');
    settle.nudge();
    await Promise.all([a, b, c]);
    expect(runs).toEqual([['a', 'b', 'c']]);
  });

  it('runs a held call alone once its longest wait has passed', async () => {
    const runs: string[][] = [];
    const settle = joined(
      async (items: readonly string[]) => {
        runs.push([...items]);
        return items.map(() => undefined);
      },
      () => true,
      20,
    );
    const started = performance.now();
    await settle.call('alone');
    expect(runs).toEqual([['alone']]);
    expect(performance.now() - started).toBeGreaterThanOrEqual(15);
  });
});
