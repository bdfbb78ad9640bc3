import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { buildOpenApiDocument } from "@/lib/openapi/document";
import { REJECTIONS } from "@/lib/events-webhook/responses";
import { API_ERROR_CODE_NAMES, API_ERROR_CODES, type ApiErrorCode } from "@/lib/platform/http/error-codes";

/*
 * lib/platform/http/error-codes.ts is the one list of `error.code` values. errorResponse() and the OpenAPI
 * helpers only take its codes (the type checker sees to that); this test checks the other direction: that
 * every listed code is sent by some source file, documented, and sent with the status the list gives it.
 */

const ROOT = path.resolve(__dirname, "../..");
const LIST_FILE = path.join(ROOT, "lib/platform/http/error-codes.ts");

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "generated" || entry.name === "openapi" ? [] : sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && full !== LIST_FILE ? [full] : [];
  });
}

const sources = [...sourceFiles(path.join(ROOT, "lib")), ...sourceFiles(path.join(ROOT, "app"))].map((file) => ({
  file: path.relative(ROOT, file),
  text: fs.readFileSync(file, "utf8"),
}));

const docs = fs
  .readdirSync(path.join(ROOT, "docs"))
  .filter((name) => name.endsWith(".md"))
  .map((name) => fs.readFileSync(path.join(ROOT, "docs", name), "utf8"))
  .join("\n");

describe("API error codes", () => {
  it.each(API_ERROR_CODE_NAMES)("%s is sent by some source file outside the OpenAPI document", (code) => {
    expect(sources.some(({ text }) => text.includes(`"${code}"`))).toBe(true);
  });

  it.each(API_ERROR_CODE_NAMES)("%s is described in docs/", (code) => {
    // In code formatting, alone or after its status (`400 invalid_request`).
    expect(new RegExp(`\`(\\d{3} )?${code}\``).test(docs)).toBe(true);
  });

  it("every code meant for the OpenAPI document is in it", () => {
    const json = JSON.stringify(buildOpenApiDocument());
    const missing = API_ERROR_CODE_NAMES.filter((code) => API_ERROR_CODES[code].openapi && !json.includes(`"${code}"`));
    expect(missing).toEqual([]);
  });

  it("literal errorResponse(status, code) calls use the code's status", () => {
    const wrong: string[] = [];
    for (const { file, text } of sources) {
      for (const match of text.matchAll(/errorResponse\(\s*(\d{3}),\s*"([a-z_]+)"/g)) {
        const code = match[2] as ApiErrorCode;
        if (API_ERROR_CODES[code]?.status !== Number(match[1])) wrong.push(`${file}: ${match[1]} ${code}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it("the webhook's rejections use the code's status", () => {
    for (const [code, { status }] of Object.entries(REJECTIONS)) {
      expect(status, code).toBe(API_ERROR_CODES[code as ApiErrorCode].status);
    }
  });
});
