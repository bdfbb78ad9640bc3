import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";

/*
 * Lines stay within 120 characters (docs/architecture.md, "Formatting and comments"). Prettier wraps
 * code but not long strings, comments, JSX text or test names, so this counts what it leaves over. A
 * handful of lines cannot be wrapped without harm (a regular expression, a code sample shown to users),
 * hence a ceiling rather than zero; keep the count well under it.
 */

const ROOT = path.resolve(__dirname, "../..");
const MAX_WIDTH = 120;
const MAX_LONG_LINES = 100;
/** Prose, generated and immutable files, lockfiles, data and images. */
const EXCLUDED = /\.md$|migrations\/|generated\/|package-lock|\.png$|\.svg$|\.json$/;

function trackedSourceFiles(): string[] {
  return execFileSync("git", ["ls-files", "-z"], { cwd: ROOT, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 })
    .split("\0")
    .filter((file) => file !== "" && !EXCLUDED.test(file) && fs.existsSync(path.join(ROOT, file)));
}

/** Every line longer than MAX_WIDTH characters, as "path:line (width)". */
function longLines(root: string, files: string[]): string[] {
  return files.flatMap((file) =>
    fs
      .readFileSync(path.join(root, file), "utf8")
      .split("\n")
      .flatMap((line, index) => {
        const width = [...line].length;
        return width > MAX_WIDTH ? [`${file}:${index + 1} (${width})`] : [];
      }),
  );
}

describe("line length", () => {
  it(`keeps at most ${MAX_LONG_LINES} lines of the tracked source over ${MAX_WIDTH} characters`, () => {
    const files = trackedSourceFiles();
    expect(files).toContain("tests/unit/line-length.test.ts");
    const long = longLines(ROOT, files);
    expect(long.length, `lines over ${MAX_WIDTH} characters:\n${long.join("\n")}`).toBeLessThanOrEqual(MAX_LONG_LINES);
  });

  it("counts characters, not bytes, and only lines over the width", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "line-length-"));
    try {
      fs.writeFileSync(
        path.join(dir, "sample.ts"),
        ["x".repeat(MAX_WIDTH), "–".repeat(MAX_WIDTH), "y".repeat(MAX_WIDTH + 1)].join("\n"),
      );
      expect(longLines(dir, ["sample.ts"])).toEqual([`sample.ts:3 (${MAX_WIDTH + 1})`]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
