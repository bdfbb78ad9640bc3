import { join, param, sql, type Sql } from "@/lib/platform/db/sql";
import { searchedStatus } from "@/lib/platform/log-filter";

/*
 * A delivery log's search box (lib/platform/log-filter.ts) as a condition of its list statement, for the
 * server only (the filter module is also read by the pages' client components).
 */

export type LogSearchColumns = { text: readonly Sql[]; status: Sql };

/**
 * Any `text` column contains the search (case-insensitive), or, for a search that is an HTTP status,
 * `status` is it.
 */
export function logSearchCondition(search: string, columns: LogSearchColumns): Sql {
  const text = param(search, "text");
  const matches = columns.text.map((column) => sql`strpos(lower(${column}), lower(${text})) > 0`);
  const status = searchedStatus(search);
  if (status !== null) matches.push(sql`${columns.status} = ${param(status, "int")}`);
  return sql`(${join(matches, " OR ")})`;
}
