import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/*
 * No import cycles, between lib/ folders or between files (docs/architecture.md). A cycle means two pieces
 * of code cannot be understood, tested or moved apart; the fix is to move the shared code to where it
 * belongs (usually one level down), not to hide the edge behind a dynamic import.
 *
 * Every edge counts: value and `import type` imports, re-exports, side-effect imports and dynamic
 * `import()`. A type-only edge does not change evaluation order, but it still ties the two modules'
 * meaning together, and moving the shared type down is always possible.
 */

const ROOT = path.resolve(__dirname, "../..");
const EXTENSIONS = [".ts", ".tsx", ".mts", ".mjs"];

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "generated" ? [] : sourceFiles(full);
    return EXTENSIONS.some((ext) => entry.name.endsWith(ext)) ? [full] : [];
  });
}

/** The file a specifier names, as a path from the repository root, or null outside lib/ and app/. */
function resolve(from: string, spec: string): string | null {
  let base: string;
  if (spec.startsWith("@/")) base = path.join(ROOT, spec.slice(2));
  else if (spec.startsWith(".")) base = path.resolve(path.dirname(from), spec);
  else return null;
  const candidates = [
    base,
    ...EXTENSIONS.map((ext) => base + ext),
    ...EXTENSIONS.map((ext) => path.join(base, `index${ext}`)),
  ];
  const found = candidates.find((file) => fs.existsSync(file) && fs.statSync(file).isFile());
  const rel = found ? path.relative(ROOT, found) : null;
  return rel && /^(lib|app)\//.test(rel) ? rel : null;
}

/** The files under lib/ and app/ that a file imports. */
function importsOf(file: string): string[] {
  const text = fs.readFileSync(file, "utf8");
  const specs = [
    ...text.matchAll(/^\s*(?:import|export)\s+[^;]*?\sfrom\s*["']([^"']+)["']/gm),
    ...text.matchAll(/^\s*import\s*["']([^"']+)["']/gm),
    ...text.matchAll(/\bimport\s*\(\s*["']([^"']+)["']\s*\)/g),
  ].map(([, spec]) => spec);
  return [...new Set(specs.map((spec) => resolve(file, spec)).filter((target) => target !== null))];
}

/** Strongly connected components of more than one node, or with a self-loop (Tarjan). */
function cycles(graph: Map<string, Set<string>>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string) => {
    index.set(node, counter);
    low.set(node, counter++);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1 || graph.get(node)?.has(node)) found.push(component.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

const files = [...sourceFiles(path.join(ROOT, "lib")), ...sourceFiles(path.join(ROOT, "app"))].map((file) =>
  path.relative(ROOT, file),
);
const fileGraph = new Map(files.map((file) => [file, new Set(importsOf(path.join(ROOT, file)))]));

/** lib/<folder>, with each lib/platform/<x> a folder of its own; null for app/ and files directly in lib/. */
function folderOf(file: string): string | null {
  const parts = file.split("/");
  if (parts[0] !== "lib" || parts.length < 3) return null;
  return parts[1] === "platform" && parts.length > 3 ? `lib/platform/${parts[2]}` : `lib/${parts[1]}`;
}

describe("import cycles", () => {
  it("finds the imports it checks", () => {
    expect(fileGraph.get("lib/public-api/routes.ts")?.size).toBeGreaterThan(0);
  });

  it("has no cycle between lib/ folders", () => {
    const folderGraph = new Map<string, Set<string>>();
    for (const [file, targets] of fileGraph) {
      const from = folderOf(file);
      if (!from) continue;
      const edges = folderGraph.get(from) ?? new Set<string>();
      folderGraph.set(from, edges);
      for (const target of targets) {
        const to = folderOf(target);
        if (to && to !== from) edges.add(to);
      }
    }
    expect(cycles(folderGraph)).toEqual([]);
  });

  it("has no cycle between files under lib/ and app/", () => {
    expect(cycles(fileGraph)).toEqual([]);
  });
});
