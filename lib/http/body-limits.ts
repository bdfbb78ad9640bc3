/*
 * How many request-body bytes the production server accepts, by path, before any handler runs. A
 * declared Content-Length over the limit is refused at once; a body without one is cut off at the limit.
 * Routes may be stricter (the webhook refuses more than 256 KiB itself, and logs it for its source).
 */

export const MiB = 1024 * 1024;

/** Everything but the CSV import: JSON API bodies, forms and server actions are far smaller. */
export const DEFAULT_BODY_LIMIT_BYTES = 1 * MiB;

/** The CSV import takes files up to 5 MiB; 6 MB of multipart body leaves room for the form around it. */
export const CSV_IMPORT_PATH = "/knowledge/events/import";
export const CSV_IMPORT_BODY_LIMIT_BYTES = 6_000_000 + 64 * 1024;

export function bodyLimitFor(pathname: string): number {
  return pathname === CSV_IMPORT_PATH ? CSV_IMPORT_BODY_LIMIT_BYTES : DEFAULT_BODY_LIMIT_BYTES;
}

/** "1 MiB", "256 KiB": limits as an integrator reads them in an error message. */
export function formatBytes(bytes: number): string {
  if (bytes >= MiB && bytes % MiB === 0) return `${bytes / MiB} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes.toLocaleString("en-US")} bytes`;
}
