import { PrismaPg } from "@prisma/adapter-pg";
import {
  bindMigrationAwareSqlAdapterFactory,
  ColumnTypeEnum,
  type SqlQuery,
  type SqlResultSet,
} from "@prisma/driver-adapter-utils";
import * as engineGlue from "@prisma/schema-engine-wasm/schema_engine_bg";
import type { MigrationList, SchemaEngine } from "@prisma/schema-engine-wasm";
import { Logger, runMigrations as runQueueMigrations } from "graphile-worker";
import crypto from "node:crypto";
import fs from "node:fs";
import pg from "pg";
import { createRequire } from "node:module";
import path from "node:path";
import { ensureDailyPartitions, partitionedTables } from "./partitions";

/*
 * Migrations with Prisma's WebAssembly schema engine. The native engine cannot be downloaded here, so
 * we drive the same engine compiled to wasm. The folder format (prisma/migrations/<ts>_<name>/
 * migration.sql + migration_lock.toml) and the _prisma_migrations table are Prisma's own, so
 * `prisma migrate deploy` with a native engine works on the same folder.
 */

export const PRISMA_DIR = path.resolve(process.cwd(), "prisma");
export const MIGRATIONS_DIR = path.join(PRISMA_DIR, "migrations");
export const SCHEMA_PATH = path.join(PRISMA_DIR, "schema.prisma");

const noFilters = { externalTables: [], externalEnums: [] };

let wasmReady = false;
let lastPanic: string | null = null;
function loadWasm() {
  if (wasmReady) return;
  // The package entry imports the .wasm as an ES module, which Node 20 refuses; instantiate it here.
  const require = createRequire(import.meta.url);
  const glueFile = require.resolve("@prisma/schema-engine-wasm/schema_engine_bg");
  const bytes = fs.readFileSync(path.join(path.dirname(glueFile), "schema_engine_bg.wasm"));
  const instance = new WebAssembly.Instance(new WebAssembly.Module(bytes), {
    "./schema_engine_bg.js": engineGlue as unknown as WebAssembly.ModuleImports,
  });
  // The engine reports Rust panics through this global before throwing.
  (globalThis as Record<string, unknown>).PRISMA_WASM_PANIC_REGISTRY = {
    set_message: (message: string) => {
      lastPanic = message;
    },
  };
  engineGlue.__wbg_set_wasm(instance.exports);
  (instance.exports.__wbindgen_start as () => void)();
  wasmReady = true;
}

/*
 * The engine introspects pg_catalog, whose `"char"` columns (OID 18) the pg driver adapter cannot map
 * (it throws UnsupportedNativeDataType), while the engine wants them typed as Character. The client
 * reports them as text with a marker on the column name; the adapter wrapper turns the marker back
 * into the Character column type the engine expects.
 */
const CHAR_MARKER = "\u0001char";

class CatalogFriendlyClient extends pg.Client {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  override query(...args: any[]): any {
    const mark = (value: pg.QueryResult | undefined) => {
      for (const field of value?.fields ?? []) {
        if (field.dataTypeID !== 18) continue;
        field.dataTypeID = 25;
        field.name += CHAR_MARKER;
      }
      return value;
    };
    const last = args.length - 1;
    if (typeof args[last] === "function") {
      const callback = args[last];
      args[last] = (error: unknown, value: pg.QueryResult) => callback(error, mark(value));
    }
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const result = (super.query as any)(...args);
    return result && typeof result.then === "function" ? result.then(mark) : result;
  }
}

type Queryable = { queryRaw: (query: SqlQuery) => Promise<SqlResultSet> };
type ScriptRunner = {
  executeScript?: (script: string) => Promise<void>;
  client?: { query: (text: string) => Promise<unknown> };
  onError?: (error: unknown) => never;
};

/*
 * The pg adapter runs a migration script by splitting it on ";", which breaks any function body or
 * DO block ($$ … ; … $$). PostgreSQL's simple query protocol runs a whole multi-statement script in
 * one call, so send it as it is.
 */
function runScriptsWhole(queryable: ScriptRunner): void {
  const { client, onError } = queryable;
  if (!queryable.executeScript || !client || !onError) return;
  queryable.executeScript = async (script) => {
    try {
      await client.query(script);
    } catch (error) {
      onError.call(queryable, error);
    }
  };
}

function restoreCharColumns<T extends Queryable>(queryable: T): T {
  runScriptsWhole(queryable as ScriptRunner);
  const queryRaw = queryable.queryRaw.bind(queryable);
  queryable.queryRaw = async (query) => {
    const result = await queryRaw(query);
    result.columnNames.forEach((name, index) => {
      if (!name.endsWith(CHAR_MARKER)) return;
      result.columnNames[index] = name.slice(0, -CHAR_MARKER.length);
      result.columnTypes[index] = ColumnTypeEnum.Character;
    });
    return result;
  };
  const withTransactions = queryable as T & { startTransaction?: (...args: unknown[]) => Promise<Queryable> };
  const startTransaction = withTransactions.startTransaction?.bind(queryable);
  if (startTransaction) {
    withTransactions.startTransaction = async (...args) => restoreCharColumns(await startTransaction(...args));
  }
  return queryable;
}

function adapterFactory(pool: pg.Pool) {
  const inner = new PrismaPg(pool);
  return {
    provider: inner.provider,
    adapterName: inner.adapterName,
    connect: async () => restoreCharColumns(await inner.connect()),
    connectToShadowDb: async () => restoreCharColumns(await inner.connectToShadowDb()),
  };
}

function readSchema(): string {
  return fs.readFileSync(SCHEMA_PATH, "utf8");
}

export function loadMigrationList(): MigrationList {
  const directories = fs.existsSync(MIGRATIONS_DIR)
    ? fs
        .readdirSync(MIGRATIONS_DIR, { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => entry.name)
        .sort()
    : [];
  const lockPath = path.join(MIGRATIONS_DIR, "migration_lock.toml");
  return {
    baseDir: MIGRATIONS_DIR,
    lockfile: {
      path: "migration_lock.toml",
      content: fs.existsSync(lockPath) ? fs.readFileSync(lockPath, "utf8") : null,
    },
    shadowDbInitScript: "",
    migrationDirectories: directories.map((name) => {
      const file = path.join(MIGRATIONS_DIR, name, "migration.sql");
      return {
        path: name,
        migrationFile: {
          path: "migration.sql",
          content: fs.existsSync(file)
            ? { tag: "ok" as const, value: fs.readFileSync(file, "utf8") }
            : { tag: "error" as const, value: "migration.sql is missing" },
        },
      };
    }),
  };
}

async function withEngine<T>(databaseUrl: string, run: (engine: SchemaEngine) => Promise<T>): Promise<T> {
  loadWasm();
  // The engine holds an advisory lock on a pooled session; ending the pool releases it.
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 2, Client: CatalogFriendlyClient });
  const factory = bindMigrationAwareSqlAdapterFactory(adapterFactory(pool) as unknown as PrismaPg);
  const { SchemaEngine } = engineGlue as unknown as {
    SchemaEngine: typeof import("@prisma/schema-engine-wasm").SchemaEngine;
  };
  const engine = await SchemaEngine.new({ datamodels: [[SCHEMA_PATH, readSchema()]] }, () => {}, factory);
  try {
    return await run(engine);
  } catch (error) {
    if (lastPanic) throw new Error(`Prisma schema engine panicked: ${lastPanic}`, { cause: error });
    throw error;
  } finally {
    lastPanic = null;
    engine.free();
    await pool.end();
  }
}

/**
 * Applies every migration in prisma/migrations that the database has not seen yet. First the job
 * queue's own schema (graphile_worker, versioned by graphile-worker itself and idempotent): earlier
 * migrations' functions call it, so it must exist before they run. Last, the partitioned logs get their
 * days from yesterday to a week ahead: a database migrated now can take inserts at once, whether or not
 * a worker has run yet.
 */
export async function applyMigrations(databaseUrl: string): Promise<string[]> {
  await runQueueMigrations({ connectionString: databaseUrl, logger: new Logger(() => () => {}) });
  const applied = await withEngine(databaseUrl, async (engine) => {
    const result = await engine.applyMigrations({ migrationsList: loadMigrationList(), filters: noFilters });
    return result.appliedMigrationNames;
  });
  await refreshServerDependentFunctions(databaseUrl);
  await createComingDays(databaseUrl);
  return applied;
}

async function createComingDays(databaseUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const tables = await partitionedTables(client);
    if (tables.length > 0) await ensureDailyPartitions(client, tables);
  } finally {
    await client.end();
  }
}

/*
 * Functions whose bodies depend on the PostgreSQL version (uuidv7() from 18, pg_input_is_valid from 16)
 * are created by a DO block of migration outbound_time_ordered_ids, which chooses the bodies for the
 * server it runs on. A database restored onto an older server would keep bodies that fail there (pg_dump
 * does not check function bodies), and one upgraded would keep the slower ones; so the same DO block,
 * read from that migration, runs again after every migration run.
 */
const SERVER_DEPENDENT_MIGRATION = "20261125120000_outbound_time_ordered_ids";

async function refreshServerDependentFunctions(databaseUrl: string): Promise<void> {
  const script = fs.readFileSync(path.join(MIGRATIONS_DIR, SERVER_DEPENDENT_MIGRATION, "migration.sql"), "utf8");
  const block = /^DO \$\$\n[\s\S]*?\n\$\$;$/m.exec(script);
  if (!block) throw new Error(`migration ${SERVER_DEPENDENT_MIGRATION} has no DO block`);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(block[0]);
  } finally {
    await client.end();
  }
}

/** Applies the migrations to a throw-away database, as Prisma's shadow database does, then drops it. */
async function withShadowDatabase<T>(databaseUrl: string, run: (shadowUrl: string) => Promise<T>): Promise<T> {
  const name = `prisma_shadow_${crypto.randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
    const shadowUrl = new URL(databaseUrl);
    shadowUrl.pathname = `/${name}`;
    try {
      await applyMigrations(shadowUrl.toString());
      return await run(shadowUrl.toString());
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    }
  } finally {
    await admin.end();
  }
}

/**
 * SQL that takes the schema the migrations produce to the one schema.prisma describes; empty when they
 * agree. The wasm engine cannot open a shadow database by itself, so we make one and introspect it.
 */
export async function pendingSchemaChanges(databaseUrl: string): Promise<string> {
  return withShadowDatabase(databaseUrl, (shadowUrl) =>
    withEngine(shadowUrl, async (engine) => {
      const files = [{ path: SCHEMA_PATH, content: readSchema() }];
      const result = await engine.diff({
        from: { tag: "schemaDatasource", files, configDir: PRISMA_DIR },
        to: { tag: "schemaDatamodel", files },
        script: true,
        exitCode: null,
        filters: noFilters,
      });
      return (result.stdout ?? "").replace(/^-- This is an empty migration\.\s*$/m, "").trim();
    }),
  );
}

/** Writes prisma/migrations/<timestamp>_<name>/migration.sql; null when there is nothing to migrate. */
export async function createMigration(databaseUrl: string, name: string): Promise<string | null> {
  const sql = await pendingSchemaChanges(databaseUrl);
  if (!sql) return null;
  const slug =
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "_")
      .replace(/^_|_$/g, "") || "migration";
  const stamp = new Date().toISOString().replace(/[-:T]/g, "").slice(0, 14);
  const folder = path.join(MIGRATIONS_DIR, `${stamp}_${slug}`);
  fs.mkdirSync(folder, { recursive: true });
  fs.writeFileSync(path.join(folder, "migration.sql"), sql + "\n");
  const lockPath = path.join(MIGRATIONS_DIR, "migration_lock.toml");
  if (!fs.existsSync(lockPath)) {
    fs.writeFileSync(
      lockPath,
      "# Please do not edit this file manually\n# It should be added in your version-control system (e.g., Git)\n" +
        'provider = "postgresql"\n',
    );
  }
  return folder;
}
