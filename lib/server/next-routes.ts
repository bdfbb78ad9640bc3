import fs from "node:fs";
import path from "node:path";

/*
 * The route template of a request Next.js answers ("/events/[id]"), for metrics: from the build's
 * routes manifest (its static pages and the regular expressions of its dynamic ones), the files of
 * public/, and "/_next/*" for Next's own assets. Anything else is "unmatched": a client cannot grow the
 * number of series by asking for paths that do not exist.
 */

export const UNMATCHED = "unmatched";
export type NextRouteTemplate = (pathname: string) => string;

type Manifest = {
  staticRoutes?: Array<{ page: string }>;
  dynamicRoutes?: Array<{ page: string; regex: string }>;
};

function readManifest(distDir: string): Manifest {
  try {
    return JSON.parse(fs.readFileSync(path.join(distDir, "routes-manifest.json"), "utf8")) as Manifest;
  } catch {
    return {};
  }
}

function publicFiles(dir: string, prefix = ""): string[] {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((entry) =>
    entry.isDirectory()
      ? publicFiles(path.join(dir, entry.name), `${prefix}/${entry.name}`)
      : [`${prefix}/${entry.name}`],
  );
}

export function nextRouteTemplates(
  root: string = process.cwd(),
  distDir: string = process.env.NEXT_DIST_DIR || ".next",
): NextRouteTemplate {
  const manifest = readManifest(path.resolve(root, distDir));
  const exact = new Set<string>([
    ...(manifest.staticRoutes ?? []).map((route) => route.page),
    ...publicFiles(path.join(root, "public")),
  ]);
  const dynamic = (manifest.dynamicRoutes ?? []).map((route) => ({ page: route.page, regex: new RegExp(route.regex) }));
  return (pathname) => {
    if (pathname.startsWith("/_next/")) return "/_next/*";
    const trimmed = pathname.length > 1 && pathname.endsWith("/") ? pathname.slice(0, -1) : pathname;
    if (exact.has(trimmed)) return trimmed;
    for (const route of dynamic) if (route.regex.test(pathname)) return route.page;
    return UNMATCHED;
  };
}
