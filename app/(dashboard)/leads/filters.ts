import { readLeadFilters, refusedFiltersNotice } from "@/lib/leads/filters";

export type LeadSearchParams = { q?: string; stage?: string; cursor?: string; dir?: string; view?: string };

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/**
 * The page's URL parameters, one value each; unknown values fall back to the defaults. The search and
 * the stage filter are passed on as sent: readLeadFilters (lib/leads/filters.ts) decides whether they apply.
 */
export function leadParams(raw: Record<string, string | string[] | undefined>): LeadSearchParams {
  return {
    q: first(raw.q) || undefined,
    stage: first(raw.stage) || undefined,
    cursor: first(raw.cursor) || undefined,
    dir: first(raw.dir) === "prev" ? "prev" : undefined,
    view: first(raw.view) === "board" ? "board" : undefined,
  };
}

/** The parameters with the search and stage filter left out when either is refused, and the notice saying so. */
export function checkedLeadParams(raw: Record<string, string | string[] | undefined>): {
  params: LeadSearchParams;
  notice: string | null;
} {
  const params = leadParams(raw);
  const { problems } = readLeadFilters(params);
  if (problems.length === 0) return { params, notice: null };
  return { params: { ...params, q: undefined, stage: undefined }, notice: refusedFiltersNotice(problems) };
}

export const hasFilters = (params: LeadSearchParams) => Boolean(params.q || params.stage);

/** A link to this page with some parameters changed (undefined removes one); paging resets unless set. */
export function leadsHref(
  params: LeadSearchParams,
  changes: Partial<Record<keyof LeadSearchParams, string | null>>,
): string {
  const next = new URLSearchParams();
  const merged: Record<string, string | null | undefined> = {
    ...params,
    cursor: undefined,
    dir: undefined,
    ...changes,
  };
  for (const key of ["view", "q", "stage", "cursor", "dir"]) {
    const value = merged[key];
    if (value) next.set(key, value);
  }
  const query = next.toString();
  return query ? `/leads?${query}` : "/leads";
}
