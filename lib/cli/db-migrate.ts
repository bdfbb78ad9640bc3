import { applyMigrations } from "../platform/db/migrate";
import { ensureSecrets, openDatabase } from "../platform/runtime/local-environment";
import { runCli } from "./run-cli";

// npm run db:migrate — applies pending migrations to DATABASE_URL or the embedded database.
runCli(async () => {
  ensureSecrets();
  const database = await openDatabase();
  try {
    const applied = await applyMigrations(database.directUrl);
    console.log(applied.length ? `Applied: ${applied.join(", ")}` : "The database is up to date.");
  } finally {
    await database.stop();
  }
});
