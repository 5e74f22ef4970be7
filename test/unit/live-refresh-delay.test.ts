import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// renderer/ has its own tsconfig: loaded by path, with the signatures the test uses.
interface RefreshDelay {
  refreshDelay(firstAt: number, now: number): number;
  LIVE_REFRESH_DEBOUNCE_MS: number;
  LIVE_REFRESH_MAX_WAIT_MS: number;
}
const { refreshDelay, LIVE_REFRESH_DEBOUNCE_MS, LIVE_REFRESH_MAX_WAIT_MS } = (await import(
  resolve(import.meta.dirname, '../../renderer/features/live/refresh-delay.ts')
)) as RefreshDelay;

/** When refreshes fire for events at `times` (ms), each rescheduling the pending refresh as useLiveRefresh does. */
function firings(times: number[]): number[] {
  const fired: number[] = [];
  let due: number | null = null;
  let firstAt = 0;
  for (const at of times) {
    if (due !== null && due <= at) {
      fired.push(due);
      due = null;
    }
    if (due === null) firstAt = at;
    due = at + refreshDelay(firstAt, at);
  }
  if (due !== null) fired.push(due);
  return fired;
}

describe('the admin UI refreshing a list from the change stream', () => {
  it('refreshes once, a debounce after the last of a burst of events', () => {
    expect(firings([0, 50, 100, 150])).toEqual([150 + LIVE_REFRESH_DEBOUNCE_MS]);
  });

  it('still refreshes every LIVE_REFRESH_MAX_WAIT_MS while events keep coming (an import of many entries)', () => {
    const steady = Array.from({ length: 60 }, (_, i) => i * 100); // one event every 100 ms for 6 s
    const fired = firings(steady);
    expect(fired.length).toBeGreaterThanOrEqual(3);
    expect(fired[0]).toBeLessThanOrEqual(LIVE_REFRESH_MAX_WAIT_MS);
    for (let i = 1; i < fired.length - 1; i++) expect((fired[i] ?? 0) - (fired[i - 1] ?? 0)).toBeLessThanOrEqual(LIVE_REFRESH_MAX_WAIT_MS + 100);
  });
});
