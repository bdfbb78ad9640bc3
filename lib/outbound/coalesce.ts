/*
 * One statement for many callers: calls made while a flush is running wait for the next flush, which
 * takes all of them (up to `maxBatch`). Idle, a call is flushed at once, so batching adds no latency;
 * under load, the statements per call fall by the size of the batch. Used by the delivery lanes for
 * claiming jobs and recording attempts (batch.ts).
 */

type Waiting<I, O> = { item: I; resolve: (value: O) => void; reject: (reason: unknown) => void };

/** `flush` answers its items' results in their order; a failed flush fails every call in it. */
export function coalescing<I, O>(flush: (items: I[]) => Promise<O[]>, maxBatch: number): (item: I) => Promise<O> {
  const queue: Waiting<I, O>[] = [];
  let running = false;
  const next = async () => {
    if (running || queue.length === 0) return;
    running = true;
    const batch = queue.splice(0, maxBatch);
    try {
      const results = await flush(batch.map((waiting) => waiting.item));
      batch.forEach((waiting, index) => waiting.resolve(results[index]));
    } catch (error) {
      for (const waiting of batch) waiting.reject(error);
    } finally {
      running = false;
      void next();
    }
  };
  return (item) =>
    new Promise<O>((resolve, reject) => {
      queue.push({ item, resolve, reject });
      void next();
    });
}
