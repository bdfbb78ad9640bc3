import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { EmbeddedDatabaseError, startEmbeddedPostgres, type EmbeddedDatabase } from "../db/embedded";
import { directDatabaseUrl } from "../db/pooler";

/*
 * What `npm start`, `npm run dev` and the db scripts share: the .data/ folder, secrets generated once
 * into it when the environment does not set them, and the embedded PostgreSQL used when DATABASE_URL
 * is not set. Production sets DATABASE_URL, NEXTAUTH_SECRET and APP_ENCRYPTION_KEY itself.
 */

export const DATA_DIR = path.resolve(process.env.DATA_DIR ?? ".data");
/** The embedded database's port, picked free on first start and re-used while it stays free. */
export const PORT_FILE = path.join(DATA_DIR, "embedded-postgres.json");

type Secrets = { NEXTAUTH_SECRET: string; APP_ENCRYPTION_KEY: string };

export function ensureSecrets(): void {
  const file = path.join(DATA_DIR, "secrets.json");
  let stored: Partial<Secrets> = {};
  if (fs.existsSync(file)) stored = JSON.parse(fs.readFileSync(file, "utf8")) as Partial<Secrets>;
  const generated: Secrets = {
    NEXTAUTH_SECRET: stored.NEXTAUTH_SECRET ?? crypto.randomBytes(32).toString("base64url"),
    APP_ENCRYPTION_KEY: stored.APP_ENCRYPTION_KEY ?? crypto.randomBytes(32).toString("base64"),
  };
  if (!stored.NEXTAUTH_SECRET || !stored.APP_ENCRYPTION_KEY) {
    fs.mkdirSync(DATA_DIR, { recursive: true });
    // Readable by the owner only: these keys decrypt the signing secrets and sign sessions.
    fs.writeFileSync(file, JSON.stringify(generated, null, 2) + "\n", { mode: 0o600 });
  }
  for (const [name, value] of Object.entries(generated)) process.env[name] ??= value;
}

/** `url` serves the app (it may go through a pooler); `directUrl` serves migrations and the worker. */
export type OpenDatabase = {
  url: string;
  directUrl: string;
  embedded: EmbeddedDatabase | null;
  stop: () => Promise<void>;
};

/**
 * DATABASE_URL when set; otherwise the embedded PostgreSQL whose data lives in .data/postgres (or, as
 * root when the postgres user cannot reach this checkout, in a folder it can; see
 * lib/platform/db/embedded-placement.ts).
 */
export async function openDatabase(log?: (line: string) => void): Promise<OpenDatabase> {
  if (process.env.DATABASE_URL) {
    const url = process.env.DATABASE_URL;
    return { url, directUrl: directDatabaseUrl() ?? url, embedded: null, stop: async () => {} };
  }
  const embedded = await startEmbeddedPostgres({
    dir: path.join(DATA_DIR, "postgres"),
    port: fixedPort(),
    portFile: PORT_FILE,
    persistent: true,
    log,
  });
  process.env.DATABASE_URL = embedded.url;
  return { url: embedded.url, directUrl: embedded.url, embedded, stop: embedded.stop };
}

function fixedPort(): number | undefined {
  const value = process.env.EMBEDDED_DB_PORT;
  if (!value) return undefined;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    throw new EmbeddedDatabaseError(
      `EMBEDDED_DB_PORT is "${value}", which is not a port number (1-65535). Set it to a free port, ` +
        `or unset it to let a free port be picked.`,
    );
  }
  return port;
}
