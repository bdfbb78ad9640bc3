import fs from "node:fs";
import { describe, expect, it } from "vitest";

describe("package-lock.json", () => {
  it("records every optional dependency, so `npm ci` accepts it on a clean machine", () => {
    const lock = JSON.parse(fs.readFileSync("package-lock.json", "utf8")) as {
      packages: Record<string, { optionalDependencies?: Record<string, string> }>;
    };
    const missing: string[] = [];
    for (const [path, meta] of Object.entries(lock.packages)) {
      for (const name of Object.keys(meta.optionalDependencies ?? {})) {
        const nested = path ? `${path}/node_modules/${name}` : `node_modules/${name}`;
        if (!lock.packages[nested] && !lock.packages[`node_modules/${name}`]) missing.push(name);
      }
    }
    expect(missing, "run `npm run lockfile:complete`").toEqual([]);
  });
});
