/** How long a list waits after an event for more before it reloads once (a bulk write sends many). */
export const LIVE_REFRESH_DEBOUNCE_MS = 250;
/** During a long run of events (an import), a list still reloads this often. */
export const LIVE_REFRESH_MAX_WAIT_MS = 2000;

/**
 * How long to wait before refreshing, for an event at `now` in a run of events that began at
 * `firstAt`: the debounce, cut short so a refresh comes at most LIVE_REFRESH_MAX_WAIT_MS after
 * the run's first event.
 */
export const refreshDelay = (firstAt: number, now: number): number => Math.min(LIVE_REFRESH_DEBOUNCE_MS, Math.max(0, firstAt + LIVE_REFRESH_MAX_WAIT_MS - now));
