import { beforeEach, describe, expect, it } from "vitest";
import { signInAction } from "@/app/(auth)/sign-in/actions";
import { signUpAction } from "@/app/(auth)/sign-up/actions";
import { signOutAction } from "@/app/(dashboard)/actions";
import { getSessionContext } from "@/lib/auth/session";
import { db } from "@/lib/platform/db/client";
import { createAccount, uniqueEmail } from "../support/factories";
import { cookieStore, redirectOf, setRequestHeaders, signInAs, signOut } from "../support/request-context";

const form = (values: Record<string, string>) => {
  const data = new FormData();
  for (const [key, value] of Object.entries(values)) data.set(key, value);
  return data;
};

beforeEach(() => {
  signOut();
  setRequestHeaders({ "x-client-ip": `10.0.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}` });
});

describe("sign-up", () => {
  it("creates the user, an account named after them and an owner membership, and signs them in", async () => {
    const email = uniqueEmail();
    const target = await redirectOf(() =>
      signUpAction(
        null,
        form({ name: "Ada Lovelace", email, password: "long enough pw", callbackUrl: "/settings/api-keys" }),
      ),
    );
    expect(target).toBe("/settings/api-keys");
    const user = await db.prisma.user.findUniqueOrThrow({
      where: { email },
      include: { memberships: { include: { account: true } } },
    });
    expect(user.passwordHash).toMatch(/^\$argon2id\$/);
    expect(user.memberships).toHaveLength(1);
    expect(user.memberships[0].role).toBe("owner");
    expect(user.memberships[0].account.name).toBe("Ada Lovelace");
    expect(cookieStore.has("next-auth.session-token")).toBe(true);
    expect((await getSessionContext())?.user.email).toBe(email);
  });

  it("refuses an email that is already used without saying so, and creates nothing", async () => {
    const { user } = await createAccount();
    const before = await db.prisma.account.count();
    const state = await signUpAction(
      null,
      form({ name: "Someone", email: user.email.toUpperCase(), password: "long enough pw" }),
    );
    expect(state).toEqual({
      ok: false,
      error: "We couldn't create an account with these details. If you already have an account, sign in.",
    });
    expect(await db.prisma.account.count()).toBe(before);
    expect(cookieStore.has("next-auth.session-token")).toBe(false);
  });

  it("rejects an invalid email and a password under 10 characters with field errors", async () => {
    const before = await db.prisma.user.count();
    const state = await signUpAction(null, form({ name: "X", email: "not-an-email", password: "short" }));
    expect(state).toMatchObject({
      ok: false,
      fieldErrors: { email: ["Enter a valid email address."], password: ["Use at least 10 characters."] },
    });
    expect(await db.prisma.user.count()).toBe(before);
  });
});

describe("sign-in", () => {
  it("signs in with the right password and follows only same-site callbacks", async () => {
    const { user, password } = await createAccount();
    const target = await redirectOf(() =>
      signInAction(null, form({ email: user.email, password, callbackUrl: "https://evil.example" })),
    );
    expect(target).toBe("/");
    expect((await getSessionContext())?.user.id).toBe(user.id);
  });

  it("gives one generic message for a wrong password and for an unknown email", async () => {
    const { user } = await createAccount();
    const wrongPassword = await signInAction(null, form({ email: user.email, password: "wrong password!" }));
    const unknownEmail = await signInAction(null, form({ email: uniqueEmail(), password: "wrong password!" }));
    expect(wrongPassword).toEqual({ ok: false, error: "The email or password is incorrect." });
    expect(unknownEmail).toEqual(wrongPassword);
    expect(cookieStore.has("next-auth.session-token")).toBe(false);
  });

  it("throttles an email after five failures, even with the right password, and says when to retry", async () => {
    const { user, password } = await createAccount();
    for (let attempt = 0; attempt < 5; attempt++) {
      setRequestHeaders({ "x-client-ip": `10.1.0.${attempt}` });
      await signInAction(null, form({ email: user.email, password: "wrong password!" }));
    }
    const state = await signInAction(null, form({ email: user.email, password }));
    expect(state.ok || state.error).toMatch(/^Too many failed attempts\. Try again in \d+ seconds\.$/);
    expect(cookieStore.has("next-auth.session-token")).toBe(false);
  });

  it("throttles an IP address that fails across many emails, whatever X-Forwarded-For claims", async () => {
    for (let attempt = 0; attempt < 30; attempt++) {
      setRequestHeaders({ "x-client-ip": "10.9.9.9", "x-forwarded-for": `203.0.113.${attempt}` });
      await signInAction(null, form({ email: uniqueEmail(), password: "wrong password!" }));
    }
    const { user, password } = await createAccount();
    setRequestHeaders({ "x-client-ip": "10.9.9.9", "x-forwarded-for": "198.51.100.1" });
    const state = await signInAction(null, form({ email: user.email, password }));
    expect(state.ok || state.error).toMatch(/Try again in \d+ seconds/);
  });

  it("evaluates at most 5 of 50 parallel wrong passwords for one email from rotating X-Forwarded-For", async () => {
    const { user } = await createAccount();
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, attempt) => {
        setRequestHeaders({ "x-forwarded-for": `198.51.100.${attempt}, 10.0.0.1` });
        return signInAction(null, form({ email: user.email, password: `wrong password ${attempt}` }));
      }),
    );
    const messages = answers.map((answer) => (answer.ok ? "signed in" : answer.error));
    const evaluated = messages.filter((message) => message === "The email or password is incorrect.").length;
    const throttled = messages.filter((message) =>
      /^Too many failed attempts\. Try again in \d+ seconds\.$/.test(message),
    ).length;
    expect(evaluated).toBeLessThanOrEqual(5);
    expect(evaluated + throttled).toBe(50);
  });

  it("gives a signed-in user's IP its attempt back, so colleagues behind one address are not throttled", async () => {
    setRequestHeaders({ "x-client-ip": "10.8.8.8" });
    for (let attempt = 0; attempt < 31; attempt++) {
      const { user, password } = await createAccount();
      expect(await redirectOf(() => signInAction(null, form({ email: user.email, password })))).toBe("/");
    }
  });
});

describe("sessions and roles", () => {
  it("signing out ends the session", async () => {
    const { user } = await createAccount();
    await signInAs(user);
    expect(await getSessionContext()).not.toBeNull();
    expect(await redirectOf(() => signOutAction())).toBe("/sign-in");
    expect(cookieStore.has("next-auth.session-token")).toBe(false);
  });

  it("rejects a session cookie copied before sign-out once the user has signed out", async () => {
    const { user, password } = await createAccount();
    expect(await redirectOf(() => signInAction(null, form({ email: user.email, password })))).toBe("/");
    const copied = cookieStore.get("next-auth.session-token")!.value;
    await redirectOf(() => signOutAction());
    cookieStore.set("next-auth.session-token", copied);
    expect(await getSessionContext()).toBeNull();

    // Signing in again issues a cookie for the new version, which works.
    signOut();
    expect(await redirectOf(() => signInAction(null, form({ email: user.email, password })))).toBe("/");
    expect((await getSessionContext())?.user.id).toBe(user.id);
  });

  it("rejects a session cookie signed with another secret", async () => {
    const { user } = await createAccount();
    await signInAs(user);
    const token = cookieStore.get("next-auth.session-token")!.value;
    cookieStore.set("next-auth.session-token", token.slice(0, -4) + "AAAA");
    expect(await getSessionContext()).toBeNull();
  });
});

describe("account time zone", () => {
  it("takes the browser's time zone at sign-up and falls back to UTC for an unknown one", async () => {
    const berlin = uniqueEmail();
    await redirectOf(() =>
      signUpAction(null, form({ name: "Ada", email: berlin, password: "long enough pw", timezone: "Europe/Berlin" })),
    );
    const bogus = uniqueEmail();
    await redirectOf(() =>
      signUpAction(null, form({ name: "Bob", email: bogus, password: "long enough pw", timezone: "Mars/Olympus" })),
    );
    const zoneOf = async (email: string) =>
      (await db.prisma.membership.findFirstOrThrow({ where: { user: { email } }, include: { account: true } })).account
        .timezone;
    expect(await zoneOf(berlin)).toBe("Europe/Berlin");
    expect(await zoneOf(bogus)).toBe("UTC");
  });
});
