import type { EventSort, EventWhen, ListEventsOptions } from "@/lib/events/list";

export type EventSearchParams = {
  q?: string;
  status?: string;
  when?: string;
  sort?: string;
  cursor?: string;
  dir?: string;
};

const SORTS: EventSort[] = ["starts_at", "-starts_at", "title", "-title"];

/** The page's URL parameters as list options; unknown values fall back to the defaults. */
export function listOptionsFrom(params: EventSearchParams): ListEventsOptions {
  return {
    query: params.q?.slice(0, 200),
    status: params.status === "upcoming" || params.status === "cancelled" ? params.status : "all",
    when: (["upcoming", "past"] as const).includes(params.when as "upcoming") ? (params.when as EventWhen) : "all",
    sort: SORTS.includes(params.sort as EventSort) ? (params.sort as EventSort) : undefined,
  };
}

export const hasFilters = (params: EventSearchParams) => Boolean(params.q || params.status || params.when);
