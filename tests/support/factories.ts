import crypto from "node:crypto";
import { signUp } from "@/lib/sign-up/sign-up";
import { db } from "@/lib/platform/db/client";
import type { Role } from "@/lib/platform/db/generated/enums";
import type { SessionContext } from "@/lib/auth/session";
import { signInAs } from "./request-context";

export const uniqueEmail = (label = "user") => `${label}-${crypto.randomBytes(5).toString("hex")}@example.test`;

export type TestAccount = { user: SessionContext["user"]; accountId: string; password: string };

/** A user who signed up: their own account, owner membership and everything sign-up creates. */
/** A signed-up account; `timezone` as the browser would send it at sign-up (else UTC). */
export async function createAccount(name = "Ada Lovelace", timezone?: string): Promise<TestAccount> {
  const password = "correct horse battery";
  const result = await signUp({ name, email: uniqueEmail(), password, timezone });
  if (!result.ok) throw new Error(`sign-up refused: ${result.code}`);
  return { user: result.user, accountId: result.accountId, password };
}

/** The owner of a new account, signed in: where most dashboard tests start. */
export async function signedInOwner(name?: string, timezone?: string): Promise<TestAccount> {
  const owner = await createAccount(name, timezone);
  await signInAs(owner.user);
  return owner;
}

/** Another person on an existing account, with the given role. */
export async function addMember(accountId: string, role: Role, name = "Grace Hopper"): Promise<SessionContext["user"]> {
  const user = await db.prisma.user.create({ data: { name, email: uniqueEmail(role), passwordHash: "not-used" } });
  await db.prisma.membership.create({ data: { userId: user.id, accountId, role } });
  return { id: user.id, name: user.name, email: user.email };
}
