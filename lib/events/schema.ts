import { z } from "zod";
import { parseWith, type Parsed } from "@/lib/platform/validation";
import { parseDateTime } from "./datetime";

/*
 * The event fields and their rules, shared by every writer of the event knowledge: the webhook, the
 * dashboard's manual edit and the CSV import. Field names are the wire names (snake_case), so one set of
 * error details serves the webhook's `details` and the forms' field errors.
 * No server imports: forms may use it for early hints.
 */

export const EVENT_LIMITS = { title: 300, description: 5_000, location: 500, url: 2_048, price: 100 } as const;
export const RECURRENCES = ["daily", "weekly", "monthly", "yearly", ""] as const;
export const EVENT_STATUSES = ["upcoming", "cancelled"] as const;

export type Recurrence = (typeof RECURRENCES)[number];
export type EventStatus = (typeof EVENT_STATUSES)[number];

/** What identifies an event within an account: trimmed title, start instant, trimmed location. */
export type EventIdentity = { title: string; startsAt: Date; startsAtOffset: string; location: string };

/** A full replacement of an event's fields (upsert, create, edit). */
export type EventInput = EventIdentity & {
  endsAt: Date | null;
  description: string;
  url: string;
  price: string;
  recurring: Recurrence;
  status: EventStatus;
};

// Limits count characters (code points), not UTF-16 units: an emoji is one character. A string no
// longer in UTF-16 units than the limit is within it, so most values skip the count.
function withinLimit(value: string, max: number): boolean {
  if (value.length <= max) return true;
  let count = 0;
  for (let i = 0; i < value.length; i++) {
    const unit = value.charCodeAt(i);
    if (unit < 0xdc00 || unit > 0xdfff || i === 0 || (value.charCodeAt(i - 1) & 0xfc00) !== 0xd800) count++;
  }
  return count <= max;
}

const required = (issue: { input: unknown }) =>
  issue.input === undefined ? "This field is required." : "Must be a string.";

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
type MaybeWellFormed = string & { isWellFormed?: () => boolean };
const isWellFormed = (value: string) => {
  const native = (value as MaybeWellFormed).isWellFormed;
  return native ? native.call(value) : !LONE_SURROGATE.test(value);
};

/*
 * PostgreSQL text cannot hold NUL, and lone UTF-16 surrogates would be silently replaced on the way to
 * UTF-8; both are rejected here so that what is stored is exactly what was sent.
 */
const storableText = (max: number) =>
  z
    .string({ error: required })
    .trim()
    .refine(
      (value) => !value.includes("\u0000") && isWellFormed(value),
      "Must not contain NUL characters or unpaired surrogates.",
    )
    .refine((value) => withinLimit(value, max), `Use at most ${max.toLocaleString("en-US")} characters.`);

const optionalText = (max: number) =>
  storableText(max)
    .nullish()
    .transform((value) => value ?? "");

const title = storableText(EVENT_LIMITS.title).refine((value) => value.length > 0, "Must not be empty.");

const dateTime = z.string({ error: required }).transform((value, ctx) => {
  const parsed = parseDateTime(value);
  if (parsed.ok) return parsed.value;
  ctx.issues.push({ code: "custom", message: parsed.message, input: value });
  return z.NEVER;
});

const optionalDateTime = z.preprocess(
  (value) => (value === "" || value === null ? undefined : value),
  dateTime.optional(),
);

const url = optionalText(EVENT_LIMITS.url).refine((value) => {
  if (value === "") return true;
  // The scheme check is on the text itself: WHATWG URL parsing is lenient ("http:example" parses).
  return /^https?:\/\/[^\s/?#]/i.test(value) && URL.canParse(value);
}, "Must be an absolute http(s) URL.");

const recurring = z
  .enum(RECURRENCES, { error: 'Must be one of daily, weekly, monthly, yearly or "".' })
  .nullish()
  .transform((value): Recurrence => value ?? "");

const status = z
  .enum(EVENT_STATUSES, { error: "Must be upcoming or cancelled." })
  .nullish()
  .transform((value): EventStatus => value ?? "upcoming");

// A JSON value that is not an object gets one message, not zod's type jargon.
const objectError = { error: "Must be a JSON object." };

const identityShape = { title, starts_at: dateTime, location: optionalText(EVENT_LIMITS.location) };

/** cancel and delete: only the identity is read; other fields are ignored. */
export const eventIdentitySchema = z.object(identityShape, objectError).transform((raw): EventIdentity => ({
  title: raw.title,
  startsAt: raw.starts_at.instant,
  startsAtOffset: raw.starts_at.offset,
  location: raw.location,
}));

/** upsert, dashboard create/edit, CSV rows. Unknown fields are ignored. */
export const eventFieldsSchema = z
  .object(
    {
      ...identityShape,
      ends_at: optionalDateTime,
      description: optionalText(EVENT_LIMITS.description),
      url,
      price: optionalText(EVENT_LIMITS.price),
      recurring,
      status,
    },
    objectError,
  )
  .superRefine((raw, ctx) => {
    if (raw.ends_at && raw.starts_at && raw.ends_at.instant.getTime() < raw.starts_at.instant.getTime()) {
      ctx.addIssue({ code: "custom", path: ["ends_at"], message: "Must not be before starts_at." });
    }
  })
  .transform((raw): EventInput => ({
    title: raw.title,
    startsAt: raw.starts_at.instant,
    startsAtOffset: raw.starts_at.offset,
    location: raw.location,
    endsAt: raw.ends_at?.instant ?? null,
    description: raw.description,
    url: raw.url,
    price: raw.price,
    recurring: raw.recurring,
    status: raw.status,
  }));

export type { FieldError } from "@/lib/platform/validation";
export type ParseResult<T> = Parsed<T>;

export function parseEventFields(input: unknown, prefix = ""): ParseResult<EventInput> {
  return parseWith(eventFieldsSchema, input, prefix);
}

export function parseEventIdentity(input: unknown, prefix = ""): ParseResult<EventIdentity> {
  return parseWith(eventIdentitySchema, input, prefix);
}
