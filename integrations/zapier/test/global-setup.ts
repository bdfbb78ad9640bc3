import { spawn, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { displayParts, generateApiKey, hashApiKey } from "../../../lib/api-keys/key-format";
import { freePort, startEmbeddedPostgres } from "../../../lib/platform/db/embedded";
import { applyMigrations } from "../../../lib/platform/db/migrate";
import { insertAccount } from "../../../tests/support/seed-sql";

declare module "vitest" {
  export interface ProvidedContext {
    zapierBaseUrl: string;
    zapierDatabaseUrl: string;
    zapierAccountId: string;
    /** A key with every scope, for the happy paths. */
    zapierApiKey: string;
    /** A key of its own, so the rate-limit test can exhaust it without starving the others. */
    zapierThrottleKey: string;
    zapierRevokedKey: string;
    zapierRateLimit: number;
  }
}

/*
 * A real instance of the app for the Zapier integration's tests, started as lib/cli/e2e-server.ts starts
 * the end-to-end server: a throw-away embedded PostgreSQL with the migrations, then `node server.mjs` on a
 * free port with the production build (NEXT_DIST_DIR picks another build folder than .next). The account
 * and its keys are inserted directly, as a person would create them in the dashboard.
 */

const ROOT = path.resolve(import.meta.dirname, "../../..");
const RATE_LIMIT = 300;

async function seedAccount(databaseUrl: string) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const accountId = await insertAccount(client, "Zapier Test Co");
    const insertKey = async (name: string, revoked = false) => {
      const key = generateApiKey();
      const { prefix, last4 } = displayParts(key);
      await client.query(
        `INSERT INTO api_keys (account_id, name, key_hash, prefix, last4, scopes, revoked_at)
         VALUES ($1, $2, $3, $4, $5, ARRAY['webhooks', 'read:leads', 'write:leads', 'read:conversations',
           'write:conversations'], $6)`,
        [accountId, name, hashApiKey(key), prefix, last4, revoked ? new Date() : null],
      );
      return key;
    };
    return {
      accountId,
      main: await insertKey("Zapier"),
      throttle: await insertKey("Zapier burst"),
      revoked: await insertKey("Zapier old", true),
    };
  } finally {
    await client.end();
  }
}

async function waitForServer(baseUrl: string, key: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new Error(
        `the app server exited with code ${child.exitCode} (is there a production build? run \`npm run build\`)`,
      );
    const status = await fetch(`${baseUrl}/api/public/zapier/me`, { headers: { Authorization: `Bearer ${key}` } }).then(
      (response) => response.status,
      () => 0,
    );
    if (status === 200) return;
    if (status !== 0) throw new Error(`GET /api/public/zapier/me answered ${status} while starting`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the app server at ${baseUrl} did not answer within 90 s`);
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
  await exited;
  clearTimeout(timer);
}

export default async function setup(project: TestProject) {
  const distDir = process.env.NEXT_DIST_DIR || ".next";
  if (!fs.existsSync(path.join(ROOT, distDir, "BUILD_ID"))) {
    throw new Error(
      `No production build in ${distDir}: run \`npm run build\` first (npm test builds before this step).`,
    );
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "zapier-pg-"));
  const database = await startEmbeddedPostgres({ dir, port: await freePort(), persistent: false });
  let child: ChildProcess | undefined;
  const teardown = async () => {
    if (child) await stop(child);
    await database.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    await applyMigrations(database.url);
    const keys = await seedAccount(database.url);
    const port = await freePort();
    const baseUrl = `http://127.0.0.1:${port}`;
    child = spawn(process.execPath, ["server.mjs"], {
      cwd: ROOT,
      stdio: ["ignore", "ignore", "inherit"],
      env: {
        ...process.env,
        NODE_ENV: "production",
        NODE_OPTIONS: "",
        NEXT_DIST_DIR: distDir,
        PORT: String(port),
        HOST: "127.0.0.1",
        DATABASE_URL: database.url,
        NEXTAUTH_SECRET: crypto.randomBytes(32).toString("base64url"),
        APP_ENCRYPTION_KEY: crypto.randomBytes(32).toString("base64"),
        NEXTAUTH_URL: baseUrl,
        APP_BASE_URL: baseUrl,
        // A loopback test server: plain http is meant.
        ALLOW_INSECURE_HTTP: "1",
        // Zapier's target URLs in these tests point at 127.0.0.1; nothing is delivered to them.
        OUTBOUND_ALLOW_LOOPBACK_TARGETS: "1",
        OUTBOUND_WORKER: "off",
        PUBLIC_API_RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT),
      },
    });
    await waitForServer(baseUrl, keys.main, child);
    project.provide("zapierBaseUrl", baseUrl);
    project.provide("zapierDatabaseUrl", database.url);
    project.provide("zapierAccountId", keys.accountId);
    project.provide("zapierApiKey", keys.main);
    project.provide("zapierThrottleKey", keys.throttle);
    project.provide("zapierRevokedKey", keys.revoked);
    project.provide("zapierRateLimit", RATE_LIMIT);
  } catch (error) {
    await teardown();
    throw error;
  }
  return teardown;
}
