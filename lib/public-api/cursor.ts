/*
 * The opaque `cursor` of every public list: the keyset values of the last item on a page (for example
 * its created_at and id), so the next page starts right after it without OFFSET. Clients must treat it
 * as opaque; only this module knows its format, so the format can change behind encode/decode.
 */

export type CursorValue = string | number;

const MAX_CURSOR_LENGTH = 1_024;

export function encodeCursor(values: readonly CursorValue[]): string {
  return Buffer.from(JSON.stringify(values), "utf8").toString("base64url");
}

/** The values that encodeCursor was given, or null for anything it could not have produced. */
export function decodeCursor(cursor: string): CursorValue[] | null {
  if (!cursor || cursor.length > MAX_CURSOR_LENGTH || !/^[A-Za-z0-9_-]+$/.test(cursor)) return null;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    if (!Array.isArray(parsed)) return null;
    const valid = parsed.every(
      (value) => (typeof value === "string" && !value.includes("\u0000")) || (typeof value === "number" && Number.isFinite(value)),
    );
    return valid ? (parsed as CursorValue[]) : null;
  } catch {
    return null;
  }
}
