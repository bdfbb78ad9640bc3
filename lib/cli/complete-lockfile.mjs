// npm run lockfile:complete — run after any `npm install` that changes package-lock.json.
//
// The registry this project installs from serves only the platform packages of this kind of machine
// (linux-x64); optional binaries for other platforms (darwin, win32, android …) answer 404, so
// `npm install` leaves them out of package-lock.json and `npm ci` then refuses the lock as out of sync.
// Recording them as optional entries without a tarball satisfies `npm ci`, which skips what it cannot
// fetch for an optional dependency.
import fs from "node:fs";

const file = "package-lock.json";
const lock = JSON.parse(fs.readFileSync(file, "utf8"));
const packages = lock.packages;
let added = 0;
for (const [path, meta] of Object.entries(packages)) {
  for (const [name, range] of Object.entries(meta.optionalDependencies ?? {})) {
    const nested = path ? `${path}/node_modules/${name}` : `node_modules/${name}`;
    if (packages[nested] || packages[`node_modules/${name}`]) continue;
    packages[`node_modules/${name}`] = { version: String(range).replace(/^[\^~=]+/, ""), optional: true };
    added++;
  }
}
fs.writeFileSync(file, JSON.stringify(lock, null, 2) + "\n");
console.log(added ? `Recorded ${added} optional platform packages in ${file}.` : `${file} is complete.`);
