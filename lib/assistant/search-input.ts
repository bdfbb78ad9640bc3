/*
 * What a search is asked and what it runs on; the query builders (search-sql.ts, series.ts) and the
 * search itself (search.ts) all take these, so they live apart from all three.
 */

/** A statement as pg takes it: text and values, or a named (prepared once per connection) config. */
export type Statement = string | { name?: string; text: string; values?: unknown[] };
export type Queryable = {
  query: <R extends object>(statement: Statement, values?: unknown[]) => Promise<{ rows: R[] }>;
};

export type SearchInput = {
  accountId: string;
  /** The account's IANA zone: recurring series keep their wall-clock time in it. */
  timeZone: string;
  now: Date;
  range: { from: Date; to: Date } | null;
  topic: string[];
  /** A topic word as typed, when folding changed it ("muller" → "müller"). */
  typed?: Record<string, string>;
  free: boolean;
  limit?: number;
};
