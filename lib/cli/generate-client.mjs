// Generates the Prisma client into lib/platform/db/generated. `prisma generate` never runs the native schema
// engine, but insists on a path to one; any existing file satisfies it (the engine cannot be
// downloaded here, migrations use the WebAssembly engine instead).
import { spawnSync } from "node:child_process";
import path from "node:path";

const env = { ...process.env };
env.PRISMA_SCHEMA_ENGINE_BINARY ??= path.resolve("package.json");
env.PRISMA_HIDE_UPDATE_MESSAGE = "1";
const result = spawnSync("npx", ["--no-install", "prisma", "generate", "--schema", "prisma/schema.prisma"], {
  stdio: "inherit",
  env,
});
process.exit(result.status ?? 1);
