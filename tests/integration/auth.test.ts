import { beforeEach, describe, expect, it } from "vitest";
import { signInAction } from "@/app/(auth)/sign-in/actions";
import { signUpAction } from "@/app/(auth)/sign-up/actions";
import { signOutAction } from "@/app/(dashboard)/actions";
import { authorizeManager, getSessionContext } from "@/lib/auth/session";
import { db } from "@/lib/db/client";
import { addMember, createAccount, uniqueEmail } from "../support/factories";
import { cookieStore, redirectOf, setRequestHeaders, signInAs, signOut } from "../support/request-context";

const form = (values: Record<string, string>) => {
  const data = new FormData();
  for (const [key, value] of Object.entries(values)) data.set(key, value);
  return data;
};

beforeEach(() => {
  signOut();
  setRequestHeaders({ "x-forwarded-for": `10.0.0.${Math.floor(Math.random() * 250)}` });
});

describe("sign-up", () => {
  it("creates the user, an account named after them and an owner membership, and signs them in", async () => {
    const email = uniqueEmail();
    const target = await redirectOf(() => signUpAction({}, form({ name: "Ada Lovelace", email, password: "long enough pw", callbackUrl: "/settings/api-keys" })));
    expect(target).toBe("/settings/api-keys");
    const user = await db.prisma.user.findUniqueOrThrow({ where: { email }, include: { memberships: { include: { account: true } } } });
    expect(user.passwordHash).toMatch(/^\$argon2id\$/);
    expect(user.memberships).toHaveLength(1);
    expect(user.memberships[0].role).toBe("owner");
    expect(user.memberships[0].account.name).toBe("Ada Lovelace");
    expect(cookieStore.has("next-auth.session-token")).toBe(true);
    expect((await getSessionContext())?.user.email).toBe(email);
  });

  it("rejects an email that is already used with a field error and creates nothing", async () => {
    const { user } = await createAccount();
    const before = await db.prisma.account.count();
    const state = await signUpAction({}, form({ name: "Someone", email: user.email.toUpperCase(), password: "long enough pw" }));
    expect(state.fieldErrors?.email).toMatch(/already exists/);
    expect(await db.prisma.account.count()).toBe(before);
    expect(cookieStore.has("next-auth.session-token")).toBe(false);
  });

  it("rejects an invalid email and a password under 10 characters with field errors", async () => {
    const before = await db.prisma.user.count();
    const state = await signUpAction({}, form({ name: "X", email: "not-an-email", password: "short" }));
    expect(state.fieldErrors?.email).toBe("Enter a valid email address.");
    expect(state.fieldErrors?.password).toBe("Use at least 10 characters.");
    expect(await db.prisma.user.count()).toBe(before);
  });
});

describe("sign-in", () => {
  it("signs in with the right password and follows only same-site callbacks", async () => {
    const { user, password } = await createAccount();
    const target = await redirectOf(() => signInAction({}, form({ email: user.email, password, callbackUrl: "https://evil.example" })));
    expect(target).toBe("/knowledge/events");
    expect((await getSessionContext())?.user.id).toBe(user.id);
  });

  it("gives one generic message for a wrong password and for an unknown email", async () => {
    const { user } = await createAccount();
    const wrongPassword = await signInAction({}, form({ email: user.email, password: "wrong password!" }));
    const unknownEmail = await signInAction({}, form({ email: uniqueEmail(), password: "wrong password!" }));
    expect(wrongPassword.error).toBe("The email or password is incorrect.");
    expect(unknownEmail.error).toBe(wrongPassword.error);
    expect(cookieStore.has("next-auth.session-token")).toBe(false);
  });

  it("throttles an email after five failures, even with the right password, and says when to retry", async () => {
    const { user, password } = await createAccount();
    for (let attempt = 0; attempt < 5; attempt++) {
      setRequestHeaders({ "x-forwarded-for": `10.1.0.${attempt}` });
      await signInAction({}, form({ email: user.email, password: "wrong password!" }));
    }
    const state = await signInAction({}, form({ email: user.email, password }));
    expect(state.error).toMatch(/^Too many failed attempts\. Try again in \d+ seconds\.$/);
    expect(cookieStore.has("next-auth.session-token")).toBe(false);
  });

  it("throttles an IP address that fails across many emails", async () => {
    setRequestHeaders({ "x-forwarded-for": "10.9.9.9" });
    for (let attempt = 0; attempt < 30; attempt++) {
      await signInAction({}, form({ email: uniqueEmail(), password: "wrong password!" }));
    }
    const { user, password } = await createAccount();
    const state = await signInAction({}, form({ email: user.email, password }));
    expect(state.error).toMatch(/Try again in \d+ seconds/);
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

  it("lets owners and admins manage, and refuses members and visitors without a session", async () => {
    const { user, accountId } = await createAccount();
    const admin = await addMember(accountId, "admin");
    const member = await addMember(accountId, "member");
    await signInAs(user);
    expect((await authorizeManager()).ok).toBe(true);
    await signInAs(admin);
    expect((await authorizeManager()).ok).toBe(true);
    await signInAs(member);
    expect(await authorizeManager()).toEqual({ ok: false, message: "Only owners and admins can do this." });
    signOut();
    expect(await authorizeManager()).toEqual({ ok: false, message: "Your session has ended. Sign in again." });
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
    await redirectOf(() => signUpAction({}, form({ name: "Ada", email: berlin, password: "long enough pw", timezone: "Europe/Berlin" })));
    const bogus = uniqueEmail();
    await redirectOf(() => signUpAction({}, form({ name: "Bob", email: bogus, password: "long enough pw", timezone: "Mars/Olympus" })));
    const zoneOf = async (email: string) =>
      (await db.prisma.membership.findFirstOrThrow({ where: { user: { email } }, include: { account: true } })).account.timezone;
    expect(await zoneOf(berlin)).toBe("Europe/Berlin");
    expect(await zoneOf(bogus)).toBe("UTC");
  });
});
