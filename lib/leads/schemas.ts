import { z } from "zod";
import { cursorParam, dateTimeParam, limitParam, orderParam } from "@/lib/api/list";
import { isPublicId } from "@/lib/platform/ids";

/*
 * The request schemas of the leads API, one exported zod schema per body or query; the same schemas
 * describe the API in its OpenAPI document (lib/openapi). Wire names are snake_case. Unknown fields are
 * ignored. No server imports: pure validation, unit-tested on its own.
 *
 * `.meta()` only annotates the document (descriptions, examples, and the limits that refinements check,
 * which a JSON Schema cannot read from a refinement); it never changes what a schema accepts.
 *
 * Text fields are trimmed; on create, a missing, null or empty field is "not set"; on PATCH a missing
 * field is unchanged and null or "" clears it. Metadata values set to null are deleted on PATCH.
 */

export const LEAD_LIMITS = {
  name: 200,
  email: 320,
  phone: 50,
  company: 200,
  source: 100,
  notes: 5_000,
  stage: 100,
  q: 200,
  metadataKeys: 50,
  metadataKey: 40,
  metadataValue: 500,
} as const;

// Limits count characters (code points), not UTF-16 units: an emoji is one character.
function withinLimit(value: string, max: number): boolean {
  if (value.length <= max) return true;
  // Only values longer in UTF-16 units than the limit pay for counting code points.
  return Array.from(value).length <= max;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** PostgreSQL text cannot hold NUL, and unpaired surrogates would not survive UTF-8: both are refused. */
const storable = (value: string) => !value.includes("\u0000") && !LONE_SURROGATE.test(value);

const string = (max: number) =>
  z
    .string({ error: "Must be a string." })
    .refine(storable, "Must not contain NUL characters or unpaired surrogates.")
    .refine((value) => withinLimit(value, max), `Use at most ${max.toLocaleString("en-US")} characters.`)
    .meta({ maxLength: max });

/** undefined: not sent; null: sent as null or empty. */
const text = (max: number) =>
  z
    .string({ error: "Must be a string." })
    .trim()
    .pipe(string(max))
    .nullish()
    .transform((value) => (value === undefined ? undefined : value || null))
    .meta({ maxLength: max });

const emailFormat = z.email();

const email = text(LEAD_LIMITS.email)
  .refine((value) => value == null || emailFormat.safeParse(value).success, "Must be a valid email address.")
  .transform((value) => (value == null ? value : value.toLowerCase()))
  .meta({
    maxLength: LEAD_LIMITS.email,
    format: "email",
    description: "Stored lower-cased; unique per account.",
    example: "ada@example.com",
  });

const stageKey = z
  .string({ error: "Must be a string." })
  .trim()
  .min(1, "Must not be empty.")
  .pipe(string(LEAD_LIMITS.stage))
  .meta({
    maxLength: LEAD_LIMITS.stage,
    description: "A stage key of the account's pipeline (GET /api/public/pipeline).",
    example: "qualified",
  });

/** Sent keys with string values (or null: delete on PATCH, ignored on create). */
export const metadataSchema = z
  .record(
    z
      .string()
      .min(1, "Keys must not be empty.")
      .max(LEAD_LIMITS.metadataKey, `Keys use at most ${LEAD_LIMITS.metadataKey} characters.`),
    string(LEAD_LIMITS.metadataValue).nullable(),
    { error: "Must be a JSON object of string values." },
  )
  .refine(
    (value) => Object.keys(value).length <= LEAD_LIMITS.metadataKeys,
    `Use at most ${LEAD_LIMITS.metadataKeys} keys.`,
  )
  .meta({
    maxProperties: LEAD_LIMITS.metadataKeys,
    description:
      `Up to ${LEAD_LIMITS.metadataKeys} string values; keys of 1–${LEAD_LIMITS.metadataKey} characters, ` +
      `values up to ${LEAD_LIMITS.metadataValue}. On PATCH a null value deletes its key.`,
    example: { plan: "pro", utm_source: "newsletter" },
  });

export type MetadataChanges = Record<string, string | null>;

const leadFields = {
  name: text(LEAD_LIMITS.name).meta({ example: "Ada Lovelace" }),
  email,
  phone: text(LEAD_LIMITS.phone).meta({ example: "+44 20 7946 0958" }),
  company: text(LEAD_LIMITS.company).meta({ example: "Analytical Engines Ltd" }),
  source: text(LEAD_LIMITS.source).meta({
    description: "Where the lead came from: chat, api, import, dashboard or your own text. Default: api.",
    example: "website-form",
  }),
  notes: text(LEAD_LIMITS.notes),
  stage: stageKey.nullish(),
  metadata: metadataSchema.nullish(),
};

const objectError = { error: "The body must be a JSON object." };
export const AT_LEAST_ONE = "Send at least one of name, email or phone.";

/** The refinement below in JSON Schema: one of the three fields holds more than whitespace. */
const atLeastOneInJsonSchema = {
  anyOf: (["name", "email", "phone"] as const).map((field) => ({
    required: [field],
    properties: { [field]: { type: "string", pattern: "\\S" } },
  })),
};

/** POST /api/public/leads */
export const createLeadSchema = z
  .object(leadFields, objectError)
  .refine((lead) => Boolean(lead.name || lead.email || lead.phone), { path: ["name"], message: AT_LEAST_ONE })
  .transform((lead) => ({
    name: lead.name ?? null,
    email: lead.email ?? null,
    phone: lead.phone ?? null,
    company: lead.company ?? null,
    source: lead.source ?? null,
    notes: lead.notes ?? null,
    stage: lead.stage ?? null,
    metadata: Object.fromEntries(
      Object.entries(lead.metadata ?? {}).filter((entry): entry is [string, string] => entry[1] !== null),
    ),
  }))
  .meta({
    id: "CreateLeadRequest",
    description: `${AT_LEAST_ONE} Text fields are trimmed; null or "" means not set. Unknown fields are ignored.`,
    override: atLeastOneInJsonSchema,
  });

export type CreateLeadBody = z.output<typeof createLeadSchema>;

/** PATCH /api/public/leads/{id}: only the fields sent change; `metadata: null` removes every key. */
export const updateLeadSchema = z
  .object(leadFields, objectError)
  .transform((lead) => ({
    ...lead,
    stage: lead.stage ?? undefined,
    metadata: lead.metadata === null ? ("clear" as const) : lead.metadata,
  }))
  .meta({
    id: "UpdateLeadRequest",
    description:
      'A partial update: fields not sent stay as they are; null or "" clears a text field. ' +
      "`metadata` merges key by key (a null value deletes its key); `metadata: null` removes every key.",
  });

export type UpdateLeadBody = z.output<typeof updateLeadSchema>;

/** POST /api/public/leads/{id}/stage */
export const changeStageSchema = z.object({ stage: stageKey }, objectError).meta({ id: "ChangeStageRequest" });

export type LeadCursor = { createdAt: string; id: string };
/** Leads page by (created_at, id); the tag keeps cursors of other lists away from this one. */
export const LEAD_CURSOR = { tag: "leads", parts: ["timestamptz", "text"] } as const;

function acceptLeadCursor([createdAt, id]: string[]): LeadCursor | null {
  return isPublicId(id, "lead") ? { createdAt, id } : null;
}

/** An optional text filter of the list's query: trimmed, at most `max` characters; empty is no filter (null). */
const textFilter = (max: number, meta: { description: string; example: string }) =>
  z
    .string()
    .trim()
    .pipe(string(max))
    .optional()
    .transform((value) => value || null)
    .meta({ maxLength: max, ...meta });

/** GET /api/public/leads */
export const listLeadsQuerySchema = z.object({
  limit: limitParam,
  order: orderParam,
  cursor: cursorParam(LEAD_CURSOR.tag, LEAD_CURSOR.parts, acceptLeadCursor),
  q: textFilter(LEAD_LIMITS.q, {
    description: "Search name, email and company (case-insensitive, substring).",
    example: "lovelace",
  }),
  stage: textFilter(LEAD_LIMITS.stage, {
    description: "Only leads in this pipeline stage (a stage key).",
    example: "new",
  }),
  created_after: dateTimeParam
    .optional()
    .meta({ description: "Only leads created after this instant (ISO 8601 with a time zone)." }),
  updated_after: dateTimeParam
    .optional()
    .meta({ description: "Only leads updated after this instant; for polling changes." }),
});

export type ListLeadsQuery = z.output<typeof listLeadsQuerySchema>;
