import "server-only";
import { decode, encode } from "next-auth/jwt";
import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { cache } from "react";
import { db } from "@/lib/db/client";
import type { Role } from "@/lib/db/generated/enums";
import { SESSION_MAX_AGE_SECONDS } from "./options";

export type SessionContext = {
  user: { id: string; name: string; email: string };
  account: { id: string; name: string; plan: "free" | "pro"; timezone: string };
  role: Role;
};

const secureCookies = () => (process.env.NEXTAUTH_URL ?? "").startsWith("https://");
const sessionCookieName = () => (secureCookies() ? "__Secure-next-auth.session-token" : "next-auth.session-token");

/** Starts a next-auth session (the same JWT cookie next-auth issues) after a server-side sign-in. */
export async function startSession(user: { id: string; name: string; email: string }): Promise<void> {
  const token = await encode({
    token: { sub: user.id, name: user.name, email: user.email },
    secret: process.env.NEXTAUTH_SECRET!,
    maxAge: SESSION_MAX_AGE_SECONDS,
  });
  (await cookies()).set(sessionCookieName(), token, {
    httpOnly: true,
    sameSite: "lax",
    secure: secureCookies(),
    path: "/",
    maxAge: SESSION_MAX_AGE_SECONDS,
  });
}

export async function endSession(): Promise<void> {
  (await cookies()).delete(sessionCookieName());
}

/**
 * The signed-in user with their account and role, read fresh from the database on every request so a
 * removed membership or changed role takes effect at once. Null without a valid session.
 */
export const getSessionContext = cache(async (): Promise<SessionContext | null> => {
  // The same JWT next-auth issues and getServerSession would decode; decoding it here keeps one
  // code path for pages, actions and tests.
  const token = (await cookies()).get(sessionCookieName())?.value;
  if (!token) return null;
  const claims = await decode({ token, secret: process.env.NEXTAUTH_SECRET! }).catch(() => null);
  const userId = claims?.sub;
  if (!userId) return null;
  const membership = await db.prisma.membership.findFirst({
    where: { userId },
    orderBy: { createdAt: "asc" },
    include: { user: true, account: true },
  });
  if (!membership) return null;
  const { user, account } = membership;
  return {
    user: { id: user.id, name: user.name, email: user.email },
    account: { id: account.id, name: account.name, plan: account.plan, timezone: account.timezone },
    role: membership.role,
  };
});

/** For pages: the session context, or a redirect to sign-in that comes back here afterwards. */
export async function requireSession(): Promise<SessionContext> {
  const context = await getSessionContext();
  if (context) return context;
  const path = (await headers()).get("x-pathname") ?? "/";
  redirect(`/sign-in?callbackUrl=${encodeURIComponent(path)}`);
}

export const MANAGER_ROLES: readonly Role[] = ["owner", "admin"];

export function canManage(context: SessionContext): boolean {
  return MANAGER_ROLES.includes(context.role);
}

export type Authorization = { ok: true; context: SessionContext } | { ok: false; message: string };

/** For server actions, which are public POST endpoints: re-check the session and the role every time. */
export async function authorizeManager(): Promise<Authorization> {
  const context = await getSessionContext();
  if (!context) return { ok: false, message: "Your session has ended. Sign in again." };
  if (!canManage(context)) return { ok: false, message: "Only owners and admins can do this." };
  return { ok: true, context };
}

export async function clientIp(): Promise<string> {
  const list = await headers();
  return list.get("x-forwarded-for")?.split(",")[0]?.trim() || list.get("x-real-ip") || "local";
}
