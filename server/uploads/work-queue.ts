/** Runs async tasks at most `limit` at a time; the others wait their turn in arrival order. */
export interface WorkQueue {
  run<T>(task: () => Promise<T>): Promise<T>;
}

/** A work queue of `limit` slots (image processing: one decoded image at a time bounds memory). */
export function createWorkQueue(limit: number): WorkQueue {
  let running = 0;
  const waiting: (() => void)[] = [];

  async function run<T>(task: () => Promise<T>): Promise<T> {
    if (running >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    else running++;
    try {
      return await task();
    } finally {
      // The slot passes straight to the next task waiting, or is freed.
      const next = waiting.shift();
      if (next) next();
      else running--;
    }
  }

  return { run };
}
