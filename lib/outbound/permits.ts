/*
 * A counting semaphore: at most `count` holders at once, the others wait in arrival order. The delivery
 * lanes (batch.ts) hold one for each attempt, so a worker never has more attempts in flight than its
 * concurrency while its other lanes already hold their next jobs.
 */

export type Permits = <T>(run: () => Promise<T>) => Promise<T>;

export function permits(count: number): Permits {
  let free = count;
  const waiting: Array<() => void> = [];
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else free++;
  };
  return async (run) => {
    if (free > 0) free--;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await run();
    } finally {
      release();
    }
  };
}
