import { describe, expect, it } from "vitest";
import { coalescing } from "@/lib/outbound/coalesce";
import { permits } from "@/lib/outbound/permits";

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

function deferredFlush() {
  const batches: number[][] = [];
  const releases: Array<() => void> = [];
  const flush = async (items: number[]) => {
    batches.push(items);
    await new Promise<void>((resolve) => releases.push(resolve));
    return items.map((item) => item * 10);
  };
  return { batches, releases, flush };
}

describe("coalescing calls into one flush", () => {
  it("flushes a lone call at once, and answers each call its own result", async () => {
    const { batches, releases, flush } = deferredFlush();
    const call = coalescing(flush, 10);
    const answer = call(1);
    expect(batches).toEqual([[1]]);
    releases[0]();
    expect(await answer).toBe(10);
  });

  it("takes the calls made while a flush runs into the next flush, together", async () => {
    const { batches, releases, flush } = deferredFlush();
    const call = coalescing(flush, 10);
    const answers = [call(1), call(2), call(3), call(4)];
    expect(batches).toEqual([[1]]);
    releases[0]();
    await tick();
    expect(batches).toEqual([[1], [2, 3, 4]]);
    releases[1]();
    expect(await Promise.all(answers)).toEqual([10, 20, 30, 40]);
  });

  it("never flushes more than maxBatch calls at once", async () => {
    const { batches, releases, flush } = deferredFlush();
    const call = coalescing(flush, 2);
    const answers = [1, 2, 3, 4, 5].map((item) => call(item));
    for (let i = 0; i < 3; i++) {
      releases[i]();
      await tick();
    }
    expect(batches).toEqual([[1], [2, 3], [4, 5]]);
    expect(await Promise.all(answers)).toEqual([10, 20, 30, 40, 50]);
  });

  it("fails every call of a failed flush, and still flushes the calls that came after", async () => {
    let fail = true;
    const call = coalescing(async (items: number[]) => {
      await tick();
      if (fail) {
        fail = false;
        throw new Error("database went away");
      }
      return items;
    }, 10);
    const first = call(1);
    const second = call(2);
    await expect(first).rejects.toThrow("database went away");
    expect(await second).toBe(2);
  });
});

describe("coalescing with a linger", () => {
  /** A coalescer whose flush records each batch and answers every item with itself. */
  function echoing(maxBatch: number, lingerMs: number) {
    const batches: number[][] = [];
    const call = coalescing(
      async (items: number[]) => {
        batches.push(items);
        return items;
      },
      maxBatch,
      lingerMs,
    );
    return { batches, call };
  }

  it("flushes a lone call at once when no flush ran lately, and waits the linger after one before more", async () => {
    const { batches, call } = echoing(10, 40);
    const started = Date.now();
    expect(await call(1)).toBe(1);
    expect(Date.now() - started).toBeLessThan(30);
    const answers = [call(2), call(3)];
    await tick();
    expect(batches).toEqual([[1]]);
    expect(await Promise.all(answers)).toEqual([2, 3]);
    expect(batches).toEqual([[1], [2, 3]]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(35);
  });

  it("does not wait once maxBatch calls are waiting", async () => {
    const { batches, call } = echoing(2, 10_000);
    await call(1);
    const started = Date.now();
    await Promise.all([call(2), call(3)]);
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(batches).toEqual([[1], [2, 3]]);
  });
});

describe("permits", () => {
  it("run at most `count` at once; the others start in arrival order as permits come back", async () => {
    const acquire = permits(2);
    const started: number[] = [];
    const finish: Array<() => void> = [];
    let running = 0;
    let most = 0;
    const runs = [1, 2, 3, 4].map((n) =>
      acquire(async () => {
        started.push(n);
        most = Math.max(most, ++running);
        await new Promise<void>((resolve) => finish.push(resolve));
        running--;
        return n;
      }),
    );
    await tick();
    expect(started).toEqual([1, 2]);
    finish[0]();
    await tick();
    expect(started).toEqual([1, 2, 3]);
    finish[1]();
    finish[2]();
    await tick();
    finish[3]();
    expect(await Promise.all(runs)).toEqual([1, 2, 3, 4]);
    expect(most).toBe(2);
  });

  it("gives a permit back when the run throws", async () => {
    const acquire = permits(1);
    await expect(acquire(async () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect(await acquire(async () => "next")).toBe("next");
  });
});
