import "server-only";
import { decode, encode } from "next-auth/jwt";
import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { cache } from "react";
import { db } from "@/lib/platform/db/client";
import type { Role } from "@/lib/platform/db/generated/enums";
import { CLIENT_IP_HEADER } from "@/lib/platform/http/client-ip";
import type { SignedInUser } from "./credentials";

/*
 * Sessions are next-auth's JWT cookie (same name, same encryption), issued and read only here: the app
 * signs people in with its own server action, so there is one sign-in door with one client-IP rule.
 * The token carries the user's session version (`sv`); sign-out bumps the version in the database, so
 * every cookie issued before, including a copied one, stops working on its next request.
 */

export const SESSION_MAX_AGE_SECONDS = 30 * 24 * 60 * 60;

export type SessionContext = {
  user: { id: string; name: string; email: string };
  account: { id: string; name: string; plan: "free" | "pro"; timezone: string };
  role: Role;
};

const secureCookies = () => (process.env.NEXTAUTH_URL ?? "").startsWith("https://");
const sessionCookieName = () => (secureCookies() ? "__Secure-next-auth.session-token" : "next-auth.session-token");

/** Starts a session (the JWT cookie next-auth's format) after a server-side sign-in. */
export async function startSession(user: SignedInUser): Promise<void> {
  const token = await encode({
    token: { sub: user.id, name: user.name, email: user.email, sv: user.sessionVersion },
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

async function readClaims(): Promise<{ userId: string; sessionVersion: number } | null> {
  const token = (await cookies()).get(sessionCookieName())?.value;
  if (!token) return null;
  const claims = await decode({ token, secret: process.env.NEXTAUTH_SECRET! }).catch(() => null);
  if (!claims?.sub) return null;
  // Tokens issued before session versions existed carry none: they match version 0, the column's default.
  const sessionVersion = typeof claims.sv === "number" ? claims.sv : 0;
  return { userId: claims.sub, sessionVersion };
}

/** Signs the user out everywhere: bumping the version invalidates this cookie and every copy of it. */
export async function endSession(): Promise<void> {
  const claims = await readClaims();
  if (claims) {
    await db.prisma.user.updateMany({
      where: { id: claims.userId, sessionVersion: claims.sessionVersion },
      data: { sessionVersion: { increment: 1 } },
    });
  }
  (await cookies()).delete(sessionCookieName());
}

/**
 * The signed-in user with their account and role, read fresh from the database on every request so a
 * removed membership or changed role takes effect at once. Null without a valid session.
 */
export const getSessionContext = cache(async (): Promise<SessionContext | null> => {
  const claims = await readClaims();
  if (!claims) return null;
  // The version check rides in the same query as the membership: no extra round trip per request.
  const membership = await db.prisma.membership.findFirst({
    where: { userId: claims.userId, user: { sessionVersion: claims.sessionVersion } },
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

/** Owners and admins. Server actions enforce it through defineAction's `role` (lib/actions/action.ts). */
export function canManage(context: SessionContext): boolean {
  return MANAGER_ROLES.includes(context.role);
}

/**
 * The client's address for throttling: only the header the production server sets from the socket (and
 * the trusted proxy hops, see lib/platform/http/client-ip.ts), never X-Forwarded-For, which the client writes.
 * Without it (the development server) every request shares the key "local".
 */
export async function clientIp(): Promise<string> {
  return (await headers()).get(CLIENT_IP_HEADER)?.trim() || "local";
}
