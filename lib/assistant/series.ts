import "server-only";
import { occurrencesBetween, type Series } from "@/lib/events/occurrences";
import type { Recurrence } from "@/lib/events/schema";
import { wallClockOf } from "@/lib/format/zoned-time";
import type { Queryable, SearchInput } from "./search";
import { DAY, FREE_PRICE_SQL, type Level, type Row } from "./search-sql";

/*
 * Recurring series in the assistant's search: the series that can have an occurrence in the window are
 * read in one statement, and their occurrences are computed by lib/events/occurrences.ts, the one
 * definition of occurrences. The statement only narrows and orders the candidates:
 * - a window shorter than a week keeps the weekly series whose weekday falls in it, one shorter than a
 *   month the monthly series whose day of the month does, one shorter than a year the yearly series
 *   whose date does (each with a day of margin either side, for offsets and occurrences still running);
 * - candidates come soonest first by their next local start on or after the window's first day, an
 *   estimate in the zone's wall-clock time that only orders them (an hour off across a DST change at
 *   worst: SERIES_MARGIN more are read than asked for).
 * Series longer than a day pass every filter: few events last that long.
 */

const SERIES_MARGIN = 20;
/** An open window (a topic with no date) looks this far ahead for a series' next occurrence. */
const OPEN_WINDOW_DAYS = 400;

export type SeriesRow = Row & { recurring: Recurrence; series_starts_at: Date };

type Candidate = Omit<Row, "part"> & { recurring: Recurrence; exceptions: number[] };

/** The local calendar values of each day from `from` to `to` (inclusive), one day of margin either side. */
function localDays(from: Date, to: Date, timeZone: string) {
  const first = Math.floor(wallClockOf(from, timeZone) / DAY) - 1;
  const last = Math.floor(wallClockOf(to, timeZone) / DAY) + 1;
  const weekdays = new Set<number>();
  const monthDays = new Set<number>();
  const dates = new Set<string>();
  for (let day = first; day <= last && day - first < 400; day++) {
    const date = new Date(day * DAY);
    weekdays.add(date.getUTCDay());
    monthDays.add(date.getUTCDate());
    dates.add(date.toISOString().slice(5, 10));
  }
  return { weekdays: [...weekdays], monthDays: [...monthDays], dates: [...dates], days: last - first + 1 };
}

function seriesQuery(input: SearchInput, level: Level | null, from: Date, to: Date | null, limit: number) {
  const values: unknown[] = [input.accountId, input.timeZone];
  const param = (value: unknown, cast: string) => `$${values.push(value)}::${cast}`;
  const where = ["e.account_id = $1::uuid", "e.recurring <> ''", "e.status = 'upcoming'"];
  if (input.free) where.push(FREE_PRICE_SQL);
  if (to) where.push(`e.starts_at < ${param(to.toISOString(), "timestamptz")}`);
  const wordSets = !level ? [] : (level.every ? level.words : [level.words.flat()]).map((forms) => param(forms, "text[]"));
  for (const set of wordSets) where.push(`e.search_words && ${set}`);
  const local = "(e.starts_at AT TIME ZONE $2::text)";
  if (to) {
    const days = localDays(from, to, input.timeZone);
    const calendar = [
      "e.recurring = 'daily'",
      "e.ends_at - e.starts_at > interval '1 day'",
      days.days >= 7 ? "e.recurring = 'weekly'" : `(e.recurring = 'weekly' AND extract(dow FROM ${local})::int = ANY(${param(days.weekdays, "int[]")}))`,
      days.days >= 31 ? "e.recurring = 'monthly'" : `(e.recurring = 'monthly' AND extract(day FROM ${local})::int = ANY(${param(days.monthDays, "int[]")}))`,
      days.days >= 366 ? "e.recurring = 'yearly'" : `(e.recurring = 'yearly' AND to_char(${local}, 'MM-DD') = ANY(${param(days.dates, "text[]")}))`,
    ];
    where.push(`(${calendar.join(" OR ")})`);
  }
  const day = `date_trunc('day', ${param(from.toISOString(), "timestamptz")} AT TIME ZONE $2::text)`;
  const time = `(${local} - date_trunc('day', ${local}))`;
  const estimate = `GREATEST(${local}, CASE e.recurring
      WHEN 'daily' THEN ${day} + ${time}
      WHEN 'weekly' THEN ${day} + ((extract(dow FROM ${local})::int - extract(dow FROM ${day})::int + 7) % 7) * interval '1 day' + ${time}
      ELSE ${day} END)`;
  const count = (words: string[][]) => words.map((forms) => `(e.search_words && ${param(forms, "text[]")})::int`).join(" + ");
  const all = level?.words.length ?? 0;
  const scores = level && !level.every ? `${count(level.words)} AS matched, ${count(level.exact)} AS exact` : `${all} AS matched, ${all} AS exact`;
  const inTitle = level ? `e.title ~* ${param(`\\m(${level.words.flat().join("|")})`, "text")}` : "false";
  const exceptionsFrom = param(new Date(from.getTime() - DAY).toISOString(), "timestamptz");
  const text = `SELECT e.id, e.title, e.starts_at, e.ends_at, e.location, e.url, e.price, e.recurring, ${inTitle} AS in_title, ${scores},
    ARRAY(SELECT (extract(epoch FROM x.occurs_at) * 1000)::float8 FROM event_exceptions x
      WHERE x.account_id = e.account_id AND x.event_id = e.id AND x.occurs_at >= ${exceptionsFrom}) AS exceptions
  FROM events e WHERE ${where.join(" AND ")}
  ORDER BY ${estimate}, e.id LIMIT ${limit + SERIES_MARGIN}`;
  return { text, values };
}

/**
 * The occurrences of the level's series in [from, to) (to = null: the next one of each series within a
 * year or so), as search rows: part 0 when the occurrence starts in the window, 1 when it is already
 * running at its start. `limit` series are read; of each at most `perSeries` occurrences (the answer's
 * length: no series can place more in it).
 */
export async function seriesOccurrences(
  client: Queryable,
  input: SearchInput,
  level: Level | null,
  window: { from: Date; to: Date | null },
  limit: number,
  perSeries: number,
): Promise<SeriesRow[]> {
  const { text, values } = seriesQuery(input, level, window.from, window.to, limit);
  const { rows } = await client.query<Candidate>(text, values);
  const to = window.to ?? new Date(window.from.getTime() + OPEN_WINDOW_DAYS * DAY);
  const found: SeriesRow[] = [];
  for (const row of rows) {
    const series: Series = {
      startsAt: row.starts_at,
      endsAt: row.ends_at,
      recurring: row.recurring,
      timeZone: input.timeZone,
      exceptions: new Set(row.exceptions),
    };
    // A question without dates wants each series' next occurrence, not every one of the year.
    for (const occurrence of occurrencesBetween(series, window.from, to, window.to ? perSeries : 1)) {
      found.push({
        ...row,
        starts_at: occurrence.startsAt,
        ends_at: occurrence.endsAt,
        series_starts_at: row.starts_at,
        part: occurrence.startsAt < window.from ? 1 : 0,
      });
    }
  }
  return found;
}
