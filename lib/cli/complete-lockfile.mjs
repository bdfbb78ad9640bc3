// npm run lockfile:complete — run after any `npm install` that changes package-lock.json.
// `node lib/cli/complete-lockfile.mjs --check [file]` only reports whether the file is complete.
//
// The registry this project installs from serves only the platform packages of this kind of machine
// (linux-x64); optional binaries for other platforms (darwin, win32, android …) answer 404, so
// `npm install` leaves them out of package-lock.json and `npm ci` then refuses the lock as out of sync.
// Recording them as optional entries without a tarball satisfies `npm ci`, which skips what it cannot
// fetch for an optional dependency.
//
// The entries must look exactly as `npm install` itself rewrites them (keys in npm's order, `dev` when
// only development dependencies need them), or every `npm install` on a fresh clone leaves
// package-lock.json modified.
import fs from "node:fs";
import { pathToFileURL } from "node:url";

/** Returns the lockfile's text with every optional dependency recorded, in npm's own layout. */
export function completeLockfile(text) {
  const lock = JSON.parse(text);
  const packages = lock.packages;
  let added = 0;
  for (const [path, meta] of Object.entries(packages)) {
    for (const [name, range] of Object.entries(meta.optionalDependencies ?? {})) {
      const nested = path ? `${path}/node_modules/${name}` : `node_modules/${name}`;
      const hoisted = `node_modules/${name}`;
      const existing = packages[nested] ?? packages[hoisted];
      if (existing && !isPlaceholder(existing)) continue;
      // npm marks a package `dev` when every path to it starts at a devDependency; a placeholder has
      // one path, through `meta`. Anything reachable from production code stays a plain optional.
      const entry = { version: String(range).replace(/^[\^~=]+/, "") };
      if (meta.dev) entry.dev = true;
      entry.optional = true;
      const key = packages[nested] ? nested : hoisted;
      if (!existing) added++;
      packages[key] = entry;
    }
  }
  // npm writes the packages sorted by a locale-aware comparison (@isaacs/string-locale-compare, "en").
  const compare = new Intl.Collator("en").compare;
  lock.packages = Object.fromEntries(
    Object.keys(packages)
      .sort(compare)
      .map((key) => [key, packages[key]]),
  );
  return { text: JSON.stringify(lock, null, 2) + "\n", added };
}

/** An entry this script wrote: a version and flags, but nothing npm could have installed. */
function isPlaceholder(entry) {
  return (
    !entry.resolved &&
    !entry.integrity &&
    !entry.link &&
    Object.keys(entry).every((key) => ["version", "dev", "optional"].includes(key))
  );
}

function main(args) {
  const check = args.includes("--check");
  const file = args.find((arg) => !arg.startsWith("--")) ?? "package-lock.json";
  const before = fs.readFileSync(file, "utf8");
  const { text, added } = completeLockfile(before);
  if (check) {
    if (text === before) return 0;
    console.error(`${file} is not complete or not in npm's layout; run \`npm run lockfile:complete\`.`);
    return 1;
  }
  if (text !== before) fs.writeFileSync(file, text);
  console.log(
    added
      ? `Recorded ${added} optional platform packages in ${file}.`
      : text === before
        ? `${file} is complete.`
        : `Rewrote ${file} in npm's layout.`,
  );
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href)
  process.exitCode = main(process.argv.slice(2));
