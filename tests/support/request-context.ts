import { encode } from "next-auth/jwt";
import { db } from "@/lib/platform/db/client";

/*
 * Stands in for Next's per-request cookies() and headers() (vi.mock of "next/headers" in
 * tests/setup/environment.ts), so server actions and sessions run their real code paths: signing in a
 * test user means minting the same JWT cookie startSession issues, with the user's current session version.
 */

const jar = new Map<string, string>();
let requestHeaders = new Headers();

export const cookieStore = {
  get: (name: string) => (jar.has(name) ? { name, value: jar.get(name)! } : undefined),
  getAll: () => [...jar.entries()].map(([name, value]) => ({ name, value })),
  has: (name: string) => jar.has(name),
  set: (name: string | { name: string; value: string }, value?: string) => {
    if (typeof name === "object") jar.set(name.name, name.value);
    else jar.set(name, value ?? "");
  },
  delete: (name: string) => jar.delete(name),
  toString: () => [...jar.entries()].map(([name, value]) => `${name}=${value}`).join("; "),
};

export function nextHeadersModule() {
  return {
    cookies: async () => cookieStore,
    headers: async () => {
      const all = new Headers(requestHeaders);
      if (jar.size) all.set("cookie", cookieStore.toString());
      return all;
    },
  };
}

export async function signInAs(user: { id: string; name: string; email: string }): Promise<void> {
  const { sessionVersion } = await db.prisma.user.findUniqueOrThrow({
    where: { id: user.id },
    select: { sessionVersion: true },
  });
  const token = await encode({
    token: { sub: user.id, name: user.name, email: user.email, sv: sessionVersion },
    secret: process.env.NEXTAUTH_SECRET!,
  });
  jar.clear();
  jar.set("next-auth.session-token", token);
}

export function signOut(): void {
  jar.clear();
}

export function setRequestHeaders(headers: Record<string, string>): void {
  requestHeaders = new Headers(headers);
}

/** The value a server action's redirect() carried, or null when it did not redirect. */
export async function redirectOf(action: () => Promise<unknown>): Promise<string | null> {
  try {
    await action();
    return null;
  } catch (error) {
    const digest = (error as { digest?: string }).digest;
    if (typeof digest === "string" && digest.startsWith("NEXT_REDIRECT")) return digest.split(";")[2] ?? "";
    throw error;
  }
}
