import crypto from "node:crypto";
import { inject, vi } from "vitest";

process.env.DATABASE_URL = inject("databaseUrl");
const directDatabaseUrl = inject("directDatabaseUrl");
if (directDatabaseUrl) {
  process.env.DATABASE_DIRECT_URL = directDatabaseUrl;
  process.env.DATABASE_POOLER = "pgbouncer";
}
process.env.NEXTAUTH_SECRET ??= crypto.randomBytes(32).toString("base64url");
process.env.APP_ENCRYPTION_KEY ??= crypto.randomBytes(32).toString("base64");
process.env.APP_BASE_URL ??= "http://localhost:3000";

// Server actions and sessions read Next's request context; tests supply it (see request-context.ts).
vi.mock("next/headers", async () => (await import("../support/request-context")).nextHeadersModule());
// revalidatePath needs Next's render store; outside a request it only has to be callable.
vi.mock("next/cache", async (importOriginal) => ({
  ...(await importOriginal<object>()),
  revalidatePath: () => {},
  revalidateTag: () => {},
}));
