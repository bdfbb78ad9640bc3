import { spawn } from "node:child_process";
import path from "node:path";
import { applyMigrations } from "../platform/db/migrate";
import { ensureSecrets, openDatabase } from "../platform/runtime/local-environment";
import { buildIsCurrent, recordBuild } from "./build-fingerprint";
import { bin, run, supervise } from "./processes";
import { runCli } from "./run-cli";

/*
 * npm start:   embedded PostgreSQL (unless DATABASE_URL), migrations, a build when missing or stale,
 *              then the production server.
 * npm run dev: the same database setup, then the Next.js development server.
 */
runCli(async () => {
  const dev = process.argv.includes("--dev");
  const port = process.env.PORT ?? "3000";
  const started = Date.now();
  ensureSecrets();
  if (!process.env.NEXTAUTH_URL) {
    process.env.NEXTAUTH_URL = `http://localhost:${port}`;
    // Plain http is refused in production unless meant; this URL is local-only, so it is.
    process.env.ALLOW_INSECURE_HTTP ??= "1";
  }
  process.env.APP_BASE_URL ??= process.env.NEXTAUTH_URL;

  const database = await openDatabase();
  if (!database.embedded) console.log("▸ Using the database at DATABASE_URL");
  else {
    const { dataDir, port: dbPort, notes } = database.embedded;
    const shown = path.relative(process.cwd(), dataDir).startsWith("..")
      ? dataDir
      : path.relative(process.cwd(), dataDir);
    console.log(`▸ Embedded PostgreSQL ready (data in ${shown}, port ${dbPort})`);
    for (const note of notes) console.log(`  Note: ${note}.`);
  }
  try {
    const applied = await applyMigrations(database.directUrl);
    console.log(applied.length ? `▸ Applied migrations: ${applied.join(", ")}` : "▸ Database schema is up to date");
  } catch (error) {
    await database.stop();
    throw error;
  }

  if (!dev && !buildIsCurrent()) {
    console.log("▸ Building the app (the build is missing or older than the source)…");
    const code = await run(bin("next"), ["build"]);
    if (code !== 0) {
      await database.stop();
      console.error("✖ The build failed; see the output above.");
      return code;
    }
    recordBuild();
  }

  console.log(
    `▸ Ready in ${((Date.now() - started) / 1000).toFixed(1)} s — starting the ` +
      `${dev ? "development" : "production"} server on http://localhost:${port}`,
  );
  // Production runs our server (server.mjs: Next.js plus the API hot paths); dev runs next dev.
  const child = dev
    ? spawn(bin("next"), ["dev", "-p", port], { stdio: "inherit", env: process.env })
    : spawn(process.execPath, ["server.mjs"], { stdio: "inherit", env: { ...process.env, PORT: port } });
  return supervise(child, database.stop);
});
