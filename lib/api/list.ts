import { z } from "zod";
import { jsonResponse } from "@/lib/platform/http/api-error";
import { tryDecodeCursor, type KeyPart, type Page } from "@/lib/platform/pagination/keyset";

/*
 * What every public list shares: `limit` 1–100 (default 25), `order` desc (newest first, the default)
 * or asc, an opaque `cursor`, and the answer `{data, has_more, next_cursor}`. Lists page by keyset
 * (never OFFSET), so a page deep in a million rows costs what the first page costs.
 * `.meta()` describes the parameters in the OpenAPI document (lib/openapi) and never changes validation:
 * query values arrive as text, so `limit` is checked here but documented as the integer it must be.
 */

export const DEFAULT_LIMIT = 25;
export const MAX_LIMIT = 100;

export type ListOrder = "desc" | "asc";

export const limitParam = z
  .string()
  .optional()
  .transform((value, ctx) => {
    if (value === undefined || value === "") return DEFAULT_LIMIT;
    const limit = /^\d{1,4}$/.test(value) ? Number(value) : NaN;
    if (limit >= 1 && limit <= MAX_LIMIT) return limit;
    ctx.issues.push({ code: "custom", message: `Must be an integer from 1 to ${MAX_LIMIT}.`, input: value });
    return z.NEVER;
  })
  .meta({
    description: `Items per page, 1–${MAX_LIMIT}.`,
    override: { type: "integer", minimum: 1, maximum: MAX_LIMIT, default: DEFAULT_LIMIT },
  });

export const orderParam = z
  .enum(["desc", "asc"], { error: "Must be desc or asc." })
  .optional()
  .transform((value): ListOrder => value ?? "desc")
  .meta({ description: "desc: newest first (the default); asc: oldest first.", default: "desc" });

/**
 * A cursor this list issued (lib/platform/pagination/keyset.ts: its tag and key types) whose values `accept`
 * recognises, or null when none was sent; anything else is a 400 naming `cursor`.
 */
export function cursorParam<T>(tag: string, parts: readonly KeyPart[], accept: (values: string[]) => T | null) {
  return z
    .string()
    .optional()
    .transform((value, ctx): T | null => {
      if (value === undefined || value === "") return null;
      const values = tryDecodeCursor(value, tag, parts);
      const position = values && accept(values);
      if (position) return position;
      ctx.issues.push({
        code: "custom",
        message: "Not a cursor this list returned. Use next_cursor from a previous page.",
        input: value,
      });
      return z.NEVER;
    })
    .meta({ description: "Opaque: the next_cursor of the previous page, sent with the same filters and order." });
}

/** Query parameters as a plain object for zod (the first value of a repeated name). */
/** A date-time query parameter with its zone (created_after, updated_after …), as a Date. */
export const dateTimeParam = z
  .string()
  .pipe(
    z.iso.datetime({
      offset: true,
      error: "Must be an ISO 8601 date-time with a time zone, e.g. 2026-01-31T09:00:00Z.",
    }),
  )
  .transform((value) => new Date(value))
  .meta({ format: "date-time", example: "2026-01-31T09:00:00Z" });

export function queryObject(url: URL): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of url.searchParams) if (!(name in out)) out[name] = value;
  return out;
}

export type ListPage<T> = Page<T>;

export function listResponse<T>(page: ListPage<T>): Response {
  return jsonResponse({ data: page.data, has_more: page.hasMore, next_cursor: page.nextCursor });
}
