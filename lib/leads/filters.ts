import { parseWith, type FieldError } from "@/lib/api/validation";
import { listLeadsQuerySchema } from "./schemas";

/*
 * The dashboard's search and stage filter (the /leads table and its CSV export) are checked by the very
 * rules of the API's list (listLeadsQuerySchema): a value PostgreSQL cannot hold (a NUL character, an
 * unpaired surrogate) or over its limit never reaches a statement. Pure: no server imports.
 */

export type LeadFilters = { q: string | null; stage: string | null };

const filtersSchema = listLeadsQuerySchema.pick({ q: true, stage: true });

export const NO_LEAD_FILTERS: LeadFilters = { q: null, stage: null };

/** The filters to apply, or none at all with the problems (per field, `q` or `stage`) when one is refused. */
export function readLeadFilters(raw: { q?: string | null; stage?: string | null }): {
  filters: LeadFilters;
  problems: FieldError[];
} {
  const parsed = parseWith(filtersSchema, { q: raw.q ?? undefined, stage: raw.stage ?? undefined });
  if (!parsed.ok) return { filters: NO_LEAD_FILTERS, problems: parsed.details };
  return { filters: { q: parsed.value.q, stage: parsed.value.stage }, problems: [] };
}

/** What the table says when it drops a refused filter. */
export function refusedFiltersNotice(problems: FieldError[]): string {
  const fields = new Set(problems.map((problem) => problem.field));
  const subject =
    fields.has("q") && fields.has("stage")
      ? "The search and the stage filter"
      : fields.has("q")
        ? "The search"
        : "The stage filter";
  return (
    `${subject} could not be applied, so every lead is shown: ` +
    `${problems.map((problem) => problem.message).join(" ")}`
  );
}
