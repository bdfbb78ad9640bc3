import fs from "node:fs";
import { recordBuild } from "./build-fingerprint";
import { bin, run } from "./processes";

/*
 * npm test: type-check, lint, formatting (Prettier), Vitest (unit + integration on a fresh PostgreSQL, then the
 * webhook, public API and outbound tests again through PgBouncer), a production build,
 * the Zapier integration's tests against that build, then Playwright on it with Debian's Chromium.
 * Stops at the first failing step.
 */
const chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const pgbouncer = process.env.PGBOUNCER_PATH ?? "/usr/sbin/pgbouncer";
const promtool = process.env.PROMTOOL_PATH ?? "/usr/bin/promtool";

function present(program: string, what: string, install: string, override: string): boolean {
  if (fs.existsSync(program)) return true;
  console.error(
    `\n✖ ${what} was not found at ${program}.\n` +
      `  Install it with:  apt-get update && apt-get install -y ${install}\n` +
      `  or point ${override} at an existing binary.\n`,
  );
  return false;
}

const steps: Array<{ name: string; command: string; args: string[]; before?: () => boolean; after?: () => void }> = [
  { name: "Type-check", command: bin("tsc"), args: ["--noEmit"] },
  { name: "Lint", command: bin("eslint"), args: ["--max-warnings=0", "."] },
  { name: "Formatting", command: bin("prettier"), args: ["--check", "--log-level=warn", "."] },
  {
    name: "Unit and integration tests",
    command: bin("vitest"),
    args: ["run"],
    // promtool checks /metrics and the alert rules (Debian's prometheus package, without its recommends).
    before: () =>
      present(promtool, "promtool (for the metrics tests)", "--no-install-recommends prometheus", "PROMTOOL_PATH"),
  },
  // The webhook, public API and outbound tests again, with DATABASE_URL through PgBouncer (transaction mode).
  {
    name: "Integration tests through PgBouncer",
    command: bin("vitest"),
    args: ["run", "--config", "vitest.pgbouncer.config.ts"],
    before: () => present(pgbouncer, "PgBouncer (for the pooled-database tests)", "pgbouncer", "PGBOUNCER_PATH"),
  },
  {
    name: "Production build",
    command: bin("next"),
    args: ["build"],
    before: () => present(chromium, "Chromium (for the end-to-end tests)", "chromium", "CHROMIUM_PATH"),
    after: recordBuild,
  },
  // zapier-platform-core's app tester against the app started on the build (integrations/zapier/test).
  {
    name: "Zapier integration tests",
    command: bin("vitest"),
    args: ["run", "--config", "integrations/zapier/vitest.config.mjs"],
  },
  { name: "End-to-end tests", command: bin("playwright"), args: ["test"] },
];

async function main() {
  const results: string[] = [];
  for (const step of steps) {
    if (step.before && !step.before()) return 1;
    console.log(`\n━━ ${step.name} ━━`);
    const started = Date.now();
    const code = await run(step.command, step.args);
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    results.push(`${code === 0 ? "✔" : "✖"} ${step.name} (${seconds} s)`);
    if (code !== 0) {
      console.error(`\n${results.join("\n")}\n\n✖ ${step.name} failed.`);
      return code;
    }
    step.after?.();
  }
  console.log(`\n${results.join("\n")}\n\nAll checks passed.`);
  return 0;
}

main().then((code) => process.exit(code));
