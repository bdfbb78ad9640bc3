import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/*
 * The layers of lib/ (docs/architecture.md): lib/platform is what every domain stands on (database,
 * HTTP, pagination, formats, ids) and knows no domain; domains never import the entry points
 * (lib/server, lib/cli) nor the app.
 */

const ROOT = path.resolve(__dirname, "../..");

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "generated" ? [] : sourceFiles(full);
    return /\.(ts|tsx|mts|mjs)$/.test(entry.name) ? [full] : [];
  });
}

/** Every module a file imports, as a path from the repository root (aliases and relative paths resolved). */
function importsOf(file: string): string[] {
  const text = fs.readFileSync(file, "utf8");
  return [...text.matchAll(/(?:from|import)\s*\(?\s*["']([^"']+)["']/g)].map(([, spec]) => {
    if (spec.startsWith("@/")) return spec.slice(2);
    if (spec.startsWith(".")) return path.relative(ROOT, path.resolve(path.dirname(file), spec));
    return `node_modules/${spec}`;
  });
}

const relative = (file: string) => path.relative(ROOT, file);

describe("the layers of lib/", () => {
  it("keeps lib/platform free of every domain, entry point and page", () => {
    const platform = sourceFiles(path.join(ROOT, "lib/platform"));
    expect(platform.flatMap(importsOf)).toContain("lib/platform/db/client");
    const offending = platform.flatMap((file) =>
      importsOf(file)
        .filter(
          (target) =>
            (target.startsWith("lib/") && !target.startsWith("lib/platform/")) ||
            target.startsWith("app/") ||
            target.startsWith("components/"),
        )
        .map((target) => `${relative(file)} → ${target}`),
    );
    expect(offending).toEqual([]);
  });

  it("keeps the domains away from the entry points (lib/server, lib/cli) and the app", () => {
    const domains = fs
      .readdirSync(path.join(ROOT, "lib"), { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && !["platform", "server", "cli"].includes(entry.name))
      .flatMap((entry) => sourceFiles(path.join(ROOT, "lib", entry.name)));
    const offending = domains.flatMap((file) =>
      importsOf(file)
        .filter((target) => /^(lib\/server|lib\/cli|app|components)\//.test(target))
        .map((target) => `${relative(file)} → ${target}`),
    );
    expect(offending).toEqual([]);
  });
});
