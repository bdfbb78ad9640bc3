import path from "node:path";
import { createMigration } from "../platform/db/migrate";
import { ensureSecrets, openDatabase } from "../platform/runtime/local-environment";
import { runCli } from "./run-cli";

// npm run db:migration -- <name> — writes a migration for the difference between the migrations and
// prisma/schema.prisma. Uses a throw-away database on the same server, never changes the main one.
runCli(async () => {
  const name = process.argv[2];
  if (!name) {
    console.error("Usage: npm run db:migration -- <name>");
    return 2;
  }
  ensureSecrets();
  const database = await openDatabase();
  try {
    const folder = await createMigration(database.url, name);
    console.log(
      folder
        ? `Created ${path.relative(process.cwd(), folder)}/migration.sql`
        : "schema.prisma and the migrations agree; nothing to create.",
    );
  } finally {
    await database.stop();
  }
});
