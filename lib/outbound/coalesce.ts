/*
 * One statement for many callers: calls made while a flush is running wait for the next flush, which
 * takes all of them (up to `maxBatch`). Idle, a call is flushed at once, so batching adds no latency;
 * under load, the statements per call fall by the size of the batch. With `lingerMs`, a flush follows
 * the previous one no sooner than that unless a full batch is waiting: larger batches under load. Used
 * for recording attempts (record.ts) and deleting finished jobs (feed.ts).
 */

type Waiting<I, O> = { item: I; resolve: (value: O) => void; reject: (reason: unknown) => void };

/** `flush` answers its items' results in their order; a failed flush fails every call in it. */
export function coalescing<I, O>(
  flush: (items: I[]) => Promise<O[]>,
  maxBatch: number,
  lingerMs = 0,
): (item: I) => Promise<O> {
  const queue: Waiting<I, O>[] = [];
  let running = false;
  let lastFlush = 0;
  let lingering: NodeJS.Timeout | null = null;
  const next = async () => {
    if (running || queue.length === 0) return;
    // Under load (the last flush was moments ago), waits a little for a fuller batch: fewer statements.
    const wait = lastFlush + lingerMs - Date.now();
    if (wait > 0 && queue.length < maxBatch) {
      lingering ??= setTimeout(() => {
        lingering = null;
        void next();
      }, wait);
      return;
    }
    if (lingering) clearTimeout(lingering);
    lingering = null;
    running = true;
    const batch = queue.splice(0, maxBatch);
    try {
      const results = await flush(batch.map((waiting) => waiting.item));
      batch.forEach((waiting, index) => waiting.resolve(results[index]));
    } catch (error) {
      for (const waiting of batch) waiting.reject(error);
    } finally {
      running = false;
      lastFlush = Date.now();
      void next();
    }
  };
  return (item) =>
    new Promise<O>((resolve, reject) => {
      queue.push({ item, resolve, reject });
      void next();
    });
}
