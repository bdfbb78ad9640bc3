import "server-only";
import crypto from "node:crypto";
import { join, param, raw, sql, type Sql } from "@/lib/platform/db/sql";
import { wallClockOf } from "@/lib/platform/format/zoned-time";
import type { Queryable, SearchInput } from "./search-input";
import { DAY, FREE_PRICE_SQL, LONG_RUNNING_SQL, matchScores, type Level } from "./search-sql";
import { expandSeries, type Candidate, type SeriesRow } from "./series-expand";
import { KINDS, phaseRanges, phasesAt } from "./series-phases";

/*
 * Recurring series in the assistant's search: a statement reads the series that can have an
 * occurrence in the window, and lib/events/occurrences.ts, the one definition of occurrences, computes
 * them. The statements only narrow and order the candidates by each series' phase (series-phases.ts,
 * events.series_phase: where it falls in its cycle on the account's wall clock), never by converting
 * every series' start to local time:
 * - without topic words, per kind (daily, weekly, monthly, yearly) the series whose phase falls in the
 *   window, in the order the window meets them: at most two ranges of events_series_phase_idx each, read
 *   from the index alone (but for a question about free events, which reads the price); then the series
 *   whose first occurrence is in the window, and those longer than a day. A named statement of one shape
 *   with one walk of the index to plan. Occurrences already running at the window's start are looked for
 *   only when too few start in it (a second statement, runningQuery);
 * - with topic words, the series having them (events_series_words_idx) that can occur in the window or
 *   be running at its start, the soonest first by their phase, with the columns the scan has read (no
 *   second lookup by id). Named by a hash of its text, so it is planned once per connection: its plan
 *   (that GIN index) does not depend on the words.
 */

/** Candidates read per part beyond the answer's length: exceptions and DST can reorder a few. */
const SERIES_MARGIN = 5;

export type { SeriesRow } from "./series-expand";

type Built = { name?: string; text: string; values: unknown[] };

const built = (statement: Sql, name?: string): Built => ({ name, text: statement.text, values: statement.values });
const FREE = raw(FREE_PRICE_SQL);
const LONG_RUNNING = raw(LONG_RUNNING_SQL);
const kindLiteral = (kind: string) => raw(`'${kind}'`);
const TOPIC_COLUMNS = "id, account_id, title, starts_at, ends_at, location, url, price, recurring, search_words";

/**
 * The rows of the candidate ids `ids` (a subquery of the account's `id`s), with their scores and coming
 * exceptions; the join names the account so it is one primary key lookup per candidate.
 */
function candidateRows(accountId: string, ids: Sql, level: Level | null, from: Date): Sql {
  return withScores(
    sql`(SELECT DISTINCT id FROM (${ids}) AS candidates) AS c JOIN events e
    ON e.account_id = ${param(accountId, "uuid")} AND e.id = c.id`,
    level,
    from,
  );
}

/** The candidates' columns, scores and coming exceptions, from `source` (its events rows named `e`). */
function withScores(source: Sql, level: Level | null, from: Date): Sql {
  const exceptionsFrom = param(new Date(from.getTime() - DAY).toISOString(), "timestamptz");
  return sql`SELECT e.id, e.title, e.starts_at, e.ends_at, e.location, e.url, e.price, e.recurring,
    ${matchScores(level, "e.")},
    ARRAY(SELECT (extract(epoch FROM x.occurs_at) * 1000)::float8 FROM event_exceptions x
      WHERE x.account_id = e.account_id AND x.event_id = e.id AND x.occurs_at >= ${exceptionsFrom}) AS exceptions
  FROM ${source}`;
}

/** Without topic words: ordered walks of the phase index, one shape whatever the window. */
function walkQuery(input: SearchInput, from: Date, to: Date | null, limit: number): Built {
  const account = param(input.accountId, "uuid");
  const since = param(from.toISOString(), "timestamptz");
  const until = param(to?.toISOString() ?? null, "timestamptz");
  // A literal, not a parameter: with a parameter the generic plan assumes a tenth of every walk is read,
  // looks dearer than planning afresh, and the walk would be planned again for every question.
  const most = raw(String(limit));
  const wallFrom = wallClockOf(from, input.timeZone);
  const wallTo = to === null ? null : wallClockOf(to, input.timeZone);
  // Per kind two phase ranges (the second empty unless the window passes the end of the cycle), as rows
  // that one lateral walk of the index takes in turn: one scan of events to plan, not eight. The window's
  // start comes in those rows too (and its bounds in a row of their own for the first occurrences): the
  // planner then estimates the walks alike whatever the values, so it keeps one plan per connection.
  const ranges = KINDS.flatMap((kind) => {
    const found = phaseRanges(kind, wallFrom, wallTo);
    return [0, 1].map((index) => {
      const [low, high] = found[index] ?? [0, 0];
      return sql`(${kindLiteral(kind)}, ${raw(String(index))}, ${param(low, "int")}, ${param(high, "int")}, ${since})`;
    });
  });
  // recurring <> '' is repeated for the partial index: recurring = r.kind alone does not imply it.
  const started = [
    sql`account_id = ${account}`,
    sql`recurring <> ''`,
    sql`recurring = r.kind`,
    sql`status = 'upcoming'`,
    sql`starts_at < r.since`,
    sql`series_phase >= r.low`,
    sql`series_phase < r.high`,
    ...(input.free ? [sql`${FREE}`] : []),
  ];
  // Each kind's first `limit` by the order the window meets them: its first range, then its second.
  const parts = [
    sql`(SELECT id FROM (SELECT w.id, row_number() OVER (PARTITION BY r.kind ORDER BY r.range, w.series_phase) AS n
      FROM (VALUES ${join(ranges, ", ")}) AS r(kind, range, low, high, since)
      CROSS JOIN LATERAL (SELECT id, series_phase FROM events WHERE ${join(started, " AND ")}
        ORDER BY series_phase LIMIT ${most}) AS w) AS walk
    WHERE n <= ${most})`,
  ];
  const common = [
    sql`account_id = ${account}`,
    sql`recurring <> ''`,
    sql`status = 'upcoming'`,
    ...(input.free ? [sql`${FREE}`] : []),
  ];
  const firstInWindow = [...common, sql`starts_at >= t.since`, sql`starts_at < coalesce(t.until, 'infinity')`];
  parts.push(sql`(SELECT w.id FROM (VALUES (${since}, ${until})) AS t(since, until) CROSS JOIN LATERAL
    (SELECT id FROM events WHERE ${join(firstInWindow, " AND ")} ORDER BY starts_at LIMIT ${most}) AS w)`);
  // Series longer than a day, whatever their phase: few, in an index of their own (events_series_long_idx).
  parts.push(
    sql`(SELECT id FROM events WHERE ${join([...common, sql`starts_at < ${since}`, sql`${LONG_RUNNING}`], " AND ")}
      LIMIT ${most})`,
  );
  const statement = candidateRows(input.accountId, join(parts, "\n  UNION ALL "), null, from);
  return built(statement, `assistant-series-walk-${limit}${input.free ? "-free" : ""}`);
}

/**
 * One pass over a set of series (a topic's, or those of a running check): each series' minutes from the
 * window's start to its next phase (`ahead`) and back to its last (`back`), per its kind.
 */
function phaseArithmetic(input: SearchInput, from: Date): { ahead: Sql; back: Sql } {
  const at = phasesAt(wallClockOf(from, input.timeZone));
  const pick = (field: "phase" | "cycle") =>
    sql`CASE recurring ${join(
      KINDS.map((kind) => sql`WHEN ${kindLiteral(kind)} THEN ${param(at[kind][field], "int")}`),
      " ",
    )} END`;
  const phase = pick("phase");
  const cycle = pick("cycle");
  return {
    ahead: sql`(((series_phase - ${phase}) % ${cycle}) + ${cycle}) % ${cycle}`,
    back: sql`(((${phase} - series_phase) % ${cycle}) + ${cycle}) % ${cycle}`,
  };
}

/** Running at `from`: started within the day before it (by phase) and lasting past it (an hour's margin). */
const runningSql = (back: Sql) =>
  sql`(ends_at IS NOT NULL AND ${back} <= 1440 AND ends_at - starts_at > (${back} - 60) * interval '1 minute')`;

/** With topic words: the topic's series that can occur in the window or run at its start, soonest first. */
function topicQuery(input: SearchInput, level: Level, from: Date, to: Date | null, limit: number): Built {
  const since = param(from.toISOString(), "timestamptz");
  const where = [
    sql`account_id = ${param(input.accountId, "uuid")}`,
    sql`recurring <> ''`,
    sql`status = 'upcoming'`,
    ...(input.free ? [sql`${FREE}`] : []),
  ];
  for (const forms of level.every ? level.words : [level.words.flat()])
    where.push(sql`search_words && ${param(forms, "text[]")}`);
  if (to) where.push(sql`starts_at < ${param(to.toISOString(), "timestamptz")}`);
  const { ahead, back } = phaseArithmetic(input, from);
  const running = runningSql(back);
  // The window's length in minutes, with a margin for DST and months shorter than 31 days.
  const span = to === null ? null : param(Math.ceil((to.getTime() - from.getTime()) / 60_000) + 60, "int");
  const inWindow =
    span === null
      ? sql`true`
      : sql`(${ahead} < ${span} + CASE WHEN recurring IN ('monthly', 'yearly')
          THEN 4320 * (1 + ${span} / 40320) ELSE 0 END)`;
  where.push(sql`(starts_at >= ${since} OR ${inWindow} OR ${running} OR ${LONG_RUNNING})`);
  // Occurrences starting in the window first, soonest first; those already running after them all.
  const estimate = sql`CASE WHEN starts_at >= ${since} THEN date_part('epoch', starts_at - ${since}) / 60
    WHEN ${inWindow} THEN ${ahead} ELSE 1e9 + ${back} END`;
  // The rows the scan has already read are kept through the sort, rather than looked up again by id.
  const soonest = sql`(SELECT ${raw(TOPIC_COLUMNS)} FROM events WHERE ${join(where, " AND ")}
    ORDER BY ${estimate}, id LIMIT ${raw(String(limit))}) AS e`;
  const statement = withScores(soonest, level, from);
  return built(
    statement,
    `assistant-series-topic-${crypto.createHash("sha1").update(statement.text).digest("hex").slice(0, 16)}`,
  );
}

/** Without topic words, when too few occurrences start in the window: the series running at its start. */
function runningQuery(input: SearchInput, from: Date, limit: number): Built {
  const since = param(from.toISOString(), "timestamptz");
  const { back } = phaseArithmetic(input, from);
  const where = [
    sql`account_id = ${param(input.accountId, "uuid")}`,
    sql`recurring <> ''`,
    sql`status = 'upcoming'`,
    sql`starts_at < ${since}`,
    ...(input.free ? [sql`${FREE}`] : []),
  ];
  const ids = sql`SELECT id FROM events WHERE ${join([...where, runningSql(back)], " AND ")} ORDER BY ${back}, id
    LIMIT ${raw(String(limit))}`;
  return built(
    candidateRows(input.accountId, ids, null, from),
    `assistant-series-running-${limit}${input.free ? "-free" : ""}`,
  );
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
  const read = async (built: Built) =>
    (
      await client.query<Candidate>(
        built.name ? { name: built.name, text: built.text, values: built.values } : built.text,
        built.name ? undefined : built.values,
      )
    ).rows;
  const most = limit + SERIES_MARGIN;
  let rows = await read(
    level ? topicQuery(input, level, window.from, window.to, most) : walkQuery(input, window.from, window.to, most),
  );
  // A partial match is ranked by its score before the order expandSeries bounds by.
  const ranked = !level || level.every;
  const found = expandSeries(rows, input.timeZone, window, perSeries, ranked);
  if (level || found.filter((row) => row.part === 0).length >= perSeries) return found;
  rows = await read(runningQuery(input, window.from, most));
  const seen = new Set(found.map((row) => `${row.id}@${row.starts_at.getTime()}`));
  return [
    ...found,
    ...expandSeries(rows, input.timeZone, window, perSeries, ranked).filter(
      (row) => !seen.has(`${row.id}@${row.starts_at.getTime()}`),
    ),
  ];
}
