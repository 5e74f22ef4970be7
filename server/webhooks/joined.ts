/**
 * Calls of `run` made within one turn of the event loop, run as one: `run` receives every item
 * asked for since the last turn and answers one result per item, in order. With `hold`, the turn
 * that finds `hold()` true waits (at most `maxWaitMs`) for a later one that does not: `nudge` when
 * what `hold` reads changed.
 */
export function joined<T, R>(run: (items: readonly T[]) => Promise<readonly R[]>, hold: () => boolean = () => false, maxWaitMs = 0) {
  let waiting: { item: T; resolve: (r: R) => void; reject: (err: unknown) => void }[] = [];
  let turn = false;
  let timer: NodeJS.Timeout | null = null;
  const flush = (): void => {
    if (timer) clearTimeout(timer);
    timer = null;
    const calls = waiting;
    waiting = [];
    if (calls.length === 0) return;
    run(calls.map((c) => c.item)).then(
      (results) => calls.forEach((c, i) => c.resolve(results[i] as R)),
      (err: unknown) => calls.forEach((c) => c.reject(err)),
    );
  };
  const nudge = (): void => {
    if (turn || waiting.length === 0) return;
    turn = true;
    setImmediate(() => {
      turn = false;
      if (waiting.length === 0 || hold()) return;
      flush();
    });
  };
  return {
    call: (item: T): Promise<R> =>
      new Promise<R>((resolve, reject) => {
        waiting.push({ item, resolve, reject });
        if (waiting.length === 1 && maxWaitMs > 0) timer = setTimeout(flush, maxWaitMs);
        nudge();
      }),
    nudge,
  };
}
