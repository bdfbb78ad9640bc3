import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as me } from "@/app/api/public/zapier/me/route";
import { generateApiKey } from "@/lib/api-keys/key-format";
import { db } from "@/lib/platform/db/client";
import { bearer, createKey } from "../support/api-keys";
import { createAccount, type TestAccount } from "../support/factories";
import { expectWindowSpent } from "../support/rate-limit";

const callMe = (key: string) =>
  me(new Request("http://localhost/api/public/zapier/me", { headers: bearer(key) }), { params: Promise.resolve({}) });

let owner: TestAccount;
beforeAll(async () => {
  owner = await createAccount("Rate Limited Travel");
  process.env.PUBLIC_API_RATE_LIMIT_PER_MINUTE = "3";
});
afterAll(() => {
  delete process.env.PUBLIC_API_RATE_LIMIT_PER_MINUTE;
});

describe("public API rate limit per key", () => {
  it("counts each request in RateLimit headers, then answers 429 with Retry-After", async () => {
    const key = await createKey(owner, { name: "Busy" });
    const remaining: Array<string | null> = [];
    for (let index = 0; index < 3; index++) {
      const response = await callMe(key.secret);
      expect(response.status).toBe(200);
      expect(response.headers.get("RateLimit-Limit")).toBe("3");
      remaining.push(response.headers.get("RateLimit-Remaining"));
    }
    expect(remaining).toEqual(["2", "1", "0"]);

    const refused = await callMe(key.secret);
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({
      ok: false,
      error: { code: "rate_limited", message: expect.stringMatching(/Retry after \d+ seconds/), details: [] },
    });
    expectWindowSpent(refused.headers, 3);
  });

  it("does not let one key's traffic limit another key of the same account", async () => {
    const [busy, quiet] = [await createKey(owner, { name: "Busy 2" }), await createKey(owner, { name: "Quiet" })];
    for (let index = 0; index < 4; index++) await callMe(busy.secret);
    expect((await callMe(busy.secret)).status).toBe(429);
    const response = await callMe(quiet.secret);
    expect(response.status).toBe(200);
    expect(response.headers.get("RateLimit-Remaining")).toBe("2");
  });

  it("holds exactly under a parallel burst: never more than the limit answered 200", async () => {
    const key = await createKey(owner, { name: "Burst" });
    const statuses = await Promise.all(
      Array.from({ length: 20 }, () => callMe(key.secret).then((response) => response.status)),
    );
    expect(statuses.filter((status) => status === 200)).toHaveLength(3);
    expect(statuses.filter((status) => status === 429)).toHaveLength(17);
  });

  it("starts a new window once the minute is over", async () => {
    const key = await createKey(owner, { name: "Patient" });
    for (let index = 0; index < 4; index++) await callMe(key.secret);
    await db.pool.query("UPDATE rate_limits SET expire = expire - 60000 WHERE key = $1", [`api-key:${key.id}`]);
    const response = await callMe(key.secret);
    expect(response.status).toBe(200);
    expect(response.headers.get("RateLimit-Remaining")).toBe("2");
  });

  it("does not count requests with an unknown key against anyone", async () => {
    const before = await db.pool.query("SELECT count(*)::int AS n FROM rate_limits WHERE key LIKE 'api-key:%'");
    const response = await callMe(generateApiKey());
    expect(response.status).toBe(401);
    const after = await db.pool.query("SELECT count(*)::int AS n FROM rate_limits WHERE key LIKE 'api-key:%'");
    expect(after.rows[0].n).toBe(before.rows[0].n);
  });
});
