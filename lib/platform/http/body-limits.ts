/*
 * How many request-body bytes the production server accepts, by path, before any handler runs. A
 * declared Content-Length over the limit is refused at once; a body without one is cut off at the limit.
 * Routes may be stricter (the webhook refuses more than 256 KiB itself, and logs it for its source).
 */

export const MiB = 1024 * 1024;

/** Everything but the CSV import: JSON API bodies, forms and server actions are far smaller. */
export const DEFAULT_BODY_LIMIT_BYTES = 1 * MiB;

/**
 * The CSV import routes (lib/csv-import/upload-route.ts: the file is the body) take files up to 5 MiB and cap
 * the stream themselves; the server lets 6 MB through so that their own cap, with its message, decides.
 * Every import dialog's route belongs here, or its files stop at the default limit.
 */
export const CSV_IMPORT_PATHS: ReadonlySet<string> = new Set(["/knowledge/events/import", "/leads/import"]);
export const CSV_IMPORT_BODY_LIMIT_BYTES = 6_000_000 + 64 * 1024;

export function bodyLimitFor(pathname: string): number {
  return CSV_IMPORT_PATHS.has(pathname) ? CSV_IMPORT_BODY_LIMIT_BYTES : DEFAULT_BODY_LIMIT_BYTES;
}

/** "1 MiB", "256 KiB": limits as an integrator reads them in an error message. */
export function formatBytes(bytes: number): string {
  if (bytes >= MiB && bytes % MiB === 0) return `${bytes / MiB} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes.toLocaleString("en-US")} bytes`;
}
