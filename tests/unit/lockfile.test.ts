import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { completeLockfile } from "@/lib/cli/complete-lockfile.mjs";

type Lock = { packages: Record<string, Record<string, unknown> & { optionalDependencies?: Record<string, string> }> };

const lockfile = (packages: Lock["packages"]) =>
  JSON.stringify({ name: "x", lockfileVersion: 3, requires: true, packages }, null, 2) + "\n";

describe("package-lock.json", () => {
  it("records every optional dependency, so `npm ci` accepts it on a clean machine", () => {
    const lock = JSON.parse(fs.readFileSync("package-lock.json", "utf8")) as Lock;
    const missing: string[] = [];
    for (const [path, meta] of Object.entries(lock.packages)) {
      for (const name of Object.keys(meta.optionalDependencies ?? {})) {
        const nested = path ? `${path}/node_modules/${name}` : `node_modules/${name}`;
        if (!lock.packages[nested] && !lock.packages[`node_modules/${name}`]) missing.push(name);
      }
    }
    expect(missing, "run `npm run lockfile:complete`").toEqual([]);
  });

  it("is already in the layout `npm install` writes, so a fresh clone stays clean after installing", () => {
    const text = fs.readFileSync("package-lock.json", "utf8");
    expect(completeLockfile(text).text === text, "run `npm run lockfile:complete`").toBe(true);
  });
});

describe("lockfile completion", () => {
  const input = lockfile({
    "": { name: "x", dependencies: { next: "1.0.0" }, devDependencies: { tw: "2.0.0" } },
    "node_modules/next": { version: "1.0.0", optionalDependencies: { "@next/swc-darwin-x64": "1.0.0" } },
    "node_modules/tw": {
      version: "2.0.0",
      dev: true,
      optionalDependencies: { "tw-win32": "^2.0.0", "tw-linux": "2.0.0" },
    },
    "node_modules/tw-linux": {
      version: "2.0.0",
      resolved: "https://registry/tw-linux.tgz",
      integrity: "sha512-x",
      dev: true,
      optional: true,
    },
  });

  it("marks a placeholder `dev` exactly when its parent is a development dependency", () => {
    const { packages } = JSON.parse(completeLockfile(input).text) as Lock;
    expect(packages["node_modules/@next/swc-darwin-x64"]).toEqual({ version: "1.0.0", optional: true });
    expect(packages["node_modules/tw-win32"]).toEqual({ version: "2.0.0", dev: true, optional: true });
    expect(packages["node_modules/tw-linux"].integrity).toBe("sha512-x");
  });

  it("orders the packages as npm does and changes nothing on a second run", () => {
    const once = completeLockfile(input);
    expect(Object.keys((JSON.parse(once.text) as Lock).packages)).toEqual([
      "",
      "node_modules/@next/swc-darwin-x64",
      "node_modules/next",
      "node_modules/tw",
      "node_modules/tw-linux",
      "node_modules/tw-win32",
    ]);
    expect(once.added).toBe(2);
    expect(completeLockfile(once.text)).toEqual({ text: once.text, added: 0 });
  });

  it("repairs a placeholder written without the `dev` flag npm would give it", () => {
    const stale = lockfile({
      "": { name: "x", devDependencies: { tw: "2.0.0" } },
      "node_modules/tw": { version: "2.0.0", dev: true, optionalDependencies: { "tw-win32": "2.0.0" } },
      "node_modules/tw-win32": { version: "2.0.0", optional: true },
    });
    const { packages } = JSON.parse(completeLockfile(stale).text) as Lock;
    expect(packages["node_modules/tw-win32"]).toEqual({ version: "2.0.0", dev: true, optional: true });
  });
});
