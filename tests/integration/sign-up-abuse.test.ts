import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { signUpAction } from "@/app/(auth)/sign-up/actions";
import { hashesRunning, hashPassword, MAX_CONCURRENT_HASHES, verifyPassword } from "@/lib/auth/password";
import { db } from "@/lib/platform/db/client";
import { createAccount, uniqueEmail } from "../support/factories";
import { cookieStore, redirectOf, setRequestHeaders, signOut } from "../support/request-context";

const REFUSED = {
  ok: false,
  error: "We couldn't create an account with these details. If you already have an account, sign in.",
};

const form = (values: Record<string, string>) => {
  const data = new FormData();
  for (const [key, value] of Object.entries(values)) data.set(key, value);
  return data;
};
const newPerson = () => form({ name: "Ada", email: uniqueEmail("signup"), password: "long enough pw" });

beforeEach(() => {
  signOut();
  setRequestHeaders({ "x-client-ip": `10.77.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}` });
});
afterEach(async () => {
  await db.pool.query("DELETE FROM rate_limits WHERE key = 'signup-global'");
});

describe("sign-up throttling", () => {
  it("allows 10 sign-ups an hour from one IP, then refuses with the neutral answer and creates nothing", async () => {
    setRequestHeaders({ "x-client-ip": "10.66.0.1", "x-forwarded-for": "203.0.113.9" });
    for (let attempt = 0; attempt < 10; attempt++) {
      expect(await redirectOf(() => signUpAction(null, newPerson()))).toBe("/");
      signOut();
    }
    const users = await db.prisma.user.count();
    // Another X-Forwarded-For does not make it another client.
    setRequestHeaders({ "x-client-ip": "10.66.0.1", "x-forwarded-for": "198.51.100.7" });
    expect(await signUpAction(null, newPerson())).toEqual(REFUSED);
    expect(await db.prisma.user.count()).toBe(users);
    expect(cookieStore.has("next-auth.session-token")).toBe(false);

    setRequestHeaders({ "x-client-ip": "10.66.0.2" });
    expect(await redirectOf(() => signUpAction(null, newPerson()))).toBe("/");
  });

  it("does not let one throttled IP use up the global allowance", async () => {
    setRequestHeaders({ "x-client-ip": "10.66.1.1" });
    await db.pool.query("INSERT INTO rate_limits (key, points, expire) VALUES ('signup-ip:10.66.1.1', 10, $1)", [
      Date.now() + 3_600_000,
    ]);
    for (let attempt = 0; attempt < 20; attempt++) expect(await signUpAction(null, newPerson())).toEqual(REFUSED);
    const { rows } = await db.pool.query("SELECT points FROM rate_limits WHERE key = 'signup-global'");
    expect(rows).toEqual([]);
  });

  it("refuses every IP once 100 sign-ups happened in the current minute", async () => {
    await db.pool.query("INSERT INTO rate_limits (key, points, expire) VALUES ('signup-global', 100, $1)", [
      Date.now() + 60_000,
    ]);
    const users = await db.prisma.user.count();
    expect(await signUpAction(null, newPerson())).toEqual(REFUSED);
    expect(await db.prisma.user.count()).toBe(users);
  });

  it("counts parallel sign-ups exactly against the global limit (3 of 6 fit under it)", async () => {
    await db.pool.query("INSERT INTO rate_limits (key, points, expire) VALUES ('signup-global', 97, $1)", [
      Date.now() + 60_000,
    ]);
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => redirectOf(() => signUpAction(null, newPerson())).catch(() => "threw")),
    );
    // redirectOf answers the redirect target for a sign-up that went through, null for a refusal.
    expect(answers.filter((answer) => answer === "/")).toHaveLength(3);
    expect(answers.filter((answer) => answer === null)).toHaveLength(3);
  });
});

describe("sign-up does not reveal existing accounts", () => {
  it("answers a taken email exactly as a throttled attempt, and keeps the existing account's password", async () => {
    const { user, password } = await createAccount();
    const taken = await signUpAction(null, form({ name: "Mallory", email: user.email, password: "another password" }));
    expect(taken).toEqual(REFUSED);
    const stored = await db.prisma.user.findUniqueOrThrow({ where: { id: user.id } });
    expect(await verifyPassword(stored.passwordHash, password)).toBe(true);
    expect(cookieStore.has("next-auth.session-token")).toBe(false);
  });
});

describe("password hashing", () => {
  it(`runs at most ${MAX_CONCURRENT_HASHES} hashes at once and completes every queued one`, async () => {
    let peak = 0;
    const sampler = setInterval(() => (peak = Math.max(peak, hashesRunning())), 1);
    const hashes = await Promise.all(
      Array.from({ length: 12 }, (_, index) => hashPassword(`password number ${index}`)),
    );
    clearInterval(sampler);
    expect(peak).toBe(MAX_CONCURRENT_HASHES);
    expect(hashesRunning()).toBe(0);
    expect(await verifyPassword(hashes[11], "password number 11")).toBe(true);
  });
});
