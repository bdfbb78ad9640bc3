import crypto from "node:crypto";
import { inject } from "vitest";

process.env.DATABASE_URL = inject("databaseUrl");
process.env.NEXTAUTH_SECRET ??= crypto.randomBytes(32).toString("base64url");
process.env.APP_ENCRYPTION_KEY ??= crypto.randomBytes(32).toString("base64");
process.env.APP_BASE_URL ??= "http://localhost:3000";
