import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";

// Everything that changes what `next build` produces. A clone gets fresh mtimes, so hash contents.
const INPUTS = [
  "app",
  "components",
  "lib",
  "public",
  "prisma/schema.prisma",
  "proxy.ts",
  "next.config.mjs",
  "postcss.config.mjs",
  "tsconfig.json",
  "package-lock.json",
];
const SKIP = new Set(["node_modules", "generated", "cli", ".next"]);
const STAMP = path.join(".next", "source-fingerprint");

function addFiles(entry: string, hash: crypto.Hash) {
  if (!fs.existsSync(entry)) return;
  const stat = fs.statSync(entry);
  if (stat.isDirectory()) {
    for (const name of fs.readdirSync(entry).sort()) if (!SKIP.has(name)) addFiles(path.join(entry, name), hash);
    return;
  }
  hash.update(entry).update("\0").update(fs.readFileSync(entry)).update("\0");
}

export function sourceFingerprint(): string {
  const hash = crypto.createHash("sha256");
  for (const input of INPUTS) addFiles(input, hash);
  return hash.digest("hex");
}

export function buildIsCurrent(): boolean {
  return (
    fs.existsSync(path.join(".next", "BUILD_ID")) &&
    fs.existsSync(STAMP) &&
    fs.readFileSync(STAMP, "utf8") === sourceFingerprint()
  );
}

export function recordBuild(): void {
  fs.writeFileSync(STAMP, sourceFingerprint());
}
