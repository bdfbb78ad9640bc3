import { z } from "zod";
import { isScope, SCOPES, sortScopes, type Scope } from "./scopes";

/*
 * Validation of the "Create API key" form. Shared by the server action (the authority) and usable by
 * the client for early hints; no server imports.
 */

export const MAX_KEY_NAME_LENGTH = 100;

export type CreateApiKeyInput = { name: string; scopes: Scope[]; expiresAt: Date | null };
export type CreateApiKeyField = keyof CreateApiKeyInput;
export type CreateApiKeyFieldErrors = Partial<Record<CreateApiKeyField, string>>;

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * An expiry is either an instant with an offset (what the dialog sends: the end of the chosen day in the
 * user's own time zone) or a bare date, read as the end of that day in UTC.
 */
export function parseExpiry(text: string): Date | null | "invalid" {
  const value = text.trim();
  if (!value) return null;
  const dateOnly = DATE_ONLY.exec(value);
  if (dateOnly) {
    const [year, month, day] = dateOnly.slice(1).map(Number);
    const end = new Date(Date.UTC(year, month - 1, day, 23, 59, 59, 999));
    // Date.UTC rolls 2026-02-31 over into March; a real calendar date survives the round trip.
    return end.getUTCMonth() === month - 1 && end.getUTCDate() === day ? end : "invalid";
  }
  if (!z.iso.datetime({ offset: true }).safeParse(value).success) return "invalid";
  const instant = new Date(value);
  return Number.isNaN(instant.getTime()) ? "invalid" : instant;
}

const nameSchema = z
  .string()
  .trim()
  .min(1, "Enter a name for the key.")
  .max(MAX_KEY_NAME_LENGTH, `Use at most ${MAX_KEY_NAME_LENGTH} characters.`);

export type RawCreateApiKey = { name: unknown; scopes: unknown[]; expiresAt: unknown };

export function parseCreateApiKey(
  raw: RawCreateApiKey,
  now: Date = new Date(),
): { ok: true; input: CreateApiKeyInput } | { ok: false; fieldErrors: CreateApiKeyFieldErrors } {
  const fieldErrors: CreateApiKeyFieldErrors = {};

  const name = nameSchema.safeParse(typeof raw.name === "string" ? raw.name : "");
  if (!name.success) fieldErrors.name = name.error.issues[0].message;

  const unknown = raw.scopes.find((scope) => !isScope(scope));
  if (unknown !== undefined) {
    fieldErrors.scopes = `Unknown scope "${String(unknown).slice(0, 40)}". Choose from ${SCOPES.join(", ")}.`;
  } else if (raw.scopes.length === 0) {
    fieldErrors.scopes = "Choose at least one scope.";
  }

  const expiresAt = parseExpiry(typeof raw.expiresAt === "string" ? raw.expiresAt : "");
  if (expiresAt === "invalid") fieldErrors.expiresAt = "Enter a valid date.";
  else if (expiresAt && expiresAt.getTime() <= now.getTime()) fieldErrors.expiresAt = "Choose a date in the future.";

  if (!name.success || fieldErrors.scopes || fieldErrors.expiresAt) return { ok: false, fieldErrors };
  return {
    ok: true,
    input: {
      name: name.data,
      scopes: sortScopes(raw.scopes as Scope[]),
      expiresAt: expiresAt === "invalid" ? null : expiresAt,
    },
  };
}
