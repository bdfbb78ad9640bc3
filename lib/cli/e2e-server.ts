import { spawn } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort, startEmbeddedPostgres } from "../platform/db/embedded";
import { applyMigrations } from "../platform/db/migrate";
import { supervise } from "./processes";
import { runCli } from "./run-cli";

// The server Playwright tests run against: the production build on a fresh, throw-away database.
runCli(async () => {
  const port = process.env.E2E_PORT ?? "3100";
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "e2e-pg-"));
  const database = await startEmbeddedPostgres({ dir, port: await freePort(), persistent: false });
  await applyMigrations(database.url);
  const env = {
    ...process.env,
    DATABASE_URL: database.url,
    NEXTAUTH_SECRET: crypto.randomBytes(32).toString("base64url"),
    APP_ENCRYPTION_KEY: crypto.randomBytes(32).toString("base64"),
    NEXTAUTH_URL: `http://127.0.0.1:${port}`,
    APP_BASE_URL: `http://127.0.0.1:${port}`,
    // A loopback test server: plain http is meant.
    ALLOW_INSECURE_HTTP: "1",
    // Every Playwright test signs up its own account from 127.0.0.1.
    SIGN_UP_LIMIT_PER_IP_PER_HOUR: "1000",
    // Every visitor in the chat tests writes from 127.0.0.1 too.
    CHAT_MESSAGES_PER_IP_PER_MINUTE: "10000",
    CHAT_CONVERSATIONS_PER_IP_PER_HOUR: "10000",
    CHAT_POLLS_PER_IP_PER_MINUTE: "100000",
    // Webhook subscriptions in the tests point at a receiver on this machine.
    OUTBOUND_ALLOW_LOOPBACK_TARGETS: "1",
  };
  const child = spawn(process.execPath, ["server.mjs"], {
    stdio: "inherit",
    env: { ...env, PORT: port, HOST: "127.0.0.1" },
  });
  return supervise(child, async () => {
    await database.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
