import "server-only";
import { join, param, raw, sql, type Sql } from "@/lib/platform/db/sql";
import type { SearchInput } from "./search-input";

/*
 * The statements of the assistant's search (search.ts describes the levels and windows they serve).
 */

const ONGOING_LOOKBACK_DAYS = 14;
/** pg_trgm similarity from which a vocabulary word counts as the intended one ("tastng" ~ "tasting": 0.5). */
const TYPO_SIMILARITY = 0.5;
/** At most this many corrections per word, the most similar first. */
const TYPO_CORRECTIONS = 3;
export const DAY = 86_400_000;

// A price that says free, or a zero amount ("0", "€0", "0.00 EUR"); an empty price is unknown, not free.
export const FREE_PRICE_SQL = `(price ~* '\\m(free|gratis|kostenlos)\\M' OR price ~ '^[^0-9]*0+([.,]0+)?[^0-9]*$')`;

// The partial index events_long_running_idx has this predicate; a query must repeat it to use the index.
export const LONG_RUNNING_SQL = "ends_at - starts_at > interval '1 day'";

const COLUMNS = "id, title, starts_at, ends_at, location, url, price";

export type Row = {
  id: string;
  title: string;
  starts_at: Date;
  ends_at: Date | null;
  location: string;
  url: string;
  price: string;
  /** 0: starts in the range; 1: already running at its start. */
  part: number;
  in_title: boolean;
  /** Words matched, as written or corrected; and as written. */
  matched: number;
  exact: number;
};

/** What a level looks for: every word (`exact` forms, or `widened` with corrections), or any of them. */
export type Level = { words: string[][]; exact: string[][]; every: boolean };

/** Start times searched by one statement: [from, to), to = null for no end. */
export type Window = { from: Date; to: Date | null };

/**
 * How well a row matches the level: `in_title` (a word in the title), `matched` (words found, as written or
 * corrected) and `exact` (as written); `prefix` is the events table's alias with its dot, or "".
 */
export function matchScores(level: Level | null, prefix: "" | "e."): Sql {
  const words = raw(`${prefix}search_words`);
  const count = (sets: string[][]) =>
    join(
      sets.map((forms) => sql`(${words} && ${param(forms, "text[]")})::int`),
      " + ",
    );
  const all = raw(String(level?.words.length ?? 0));
  const scores =
    level && !level.every
      ? sql`${count(level.words)} AS matched, ${count(level.exact)} AS exact`
      : sql`${all} AS matched, ${all} AS exact`;
  // Letters and digits only (topic words and vocabulary words), so safe inside a pattern.
  const pattern = level ? param(`\\m(${level.words.flat().join("|")})`, "text") : null;
  const inTitle = pattern ? sql`${raw(prefix)}title ~* ${pattern}` : sql`false`;
  return sql`${inTitle} AS in_title, ${scores}`;
}

/** Each word's closest vocabulary words (not the word itself), the most similar first. */
export function correctionsSql(account: string, words: string): string {
  return `SELECT w.i::int AS i, array_agg(near.word ORDER BY near.similarity DESC, near.word) AS near
     FROM unnest(${words}) WITH ORDINALITY AS w(word, i),
       LATERAL (SELECT e.word, similarity(e.word, w.word) AS similarity FROM event_words e
         WHERE e.account_id = ${account} AND e.word % w.word AND e.word <> w.word
           AND similarity(e.word, w.word) >= ${TYPO_SIMILARITY}
         ORDER BY similarity(e.word, w.word) DESC, e.word LIMIT ${TYPO_CORRECTIONS}) AS near
     GROUP BY w.i`;
}

/**
 * The soonest `limit` candidates of a level in a window, as one statement: events starting in the
 * window, and (for the first window) those already running at its start. Running events are found in
 * two bounded walks instead of one over every event of the last ONGOING_LOOKBACK_DAYS, most of which
 * have ended: events that started within the last day, and the few longer ones (events_long_running_idx).
 * Those few are filtered by the topic words after the walk (OFFSET 0 keeps the planner from pushing the
 * words into it), which is cheaper than another lookup in the word index.
 */
export function candidateQuery(input: SearchInput, level: Level | null, window: Window, first: boolean, limit: number) {
  const at = (time: Date) => param(time.toISOString(), "timestamptz");
  const since = at(window.from);
  // Recurring series are searched by their occurrences (series.ts).
  const common = [sql`account_id = ${param(input.accountId, "uuid")}`, sql`status = 'upcoming'`, sql`recurring = ''`];
  if (input.free) common.push(sql`${raw(FREE_PRICE_SQL)}`);
  // Every word (each: any of its forms), or any word at all.
  const wordSets = !level
    ? []
    : (level.every ? level.words : [level.words.flat()]).map((forms) => param(forms, "text[]"));
  const matching = (column: string) =>
    wordSets.length === 0
      ? sql`true`
      : join(
          wordSets.map((set) => sql`${raw(column)} && ${set}`),
          " AND ",
        );
  const columns = raw(`${COLUMNS}${level && !level.every ? ", search_words" : ""}`);
  const lim = raw(String(limit));
  const startingIn = [
    ...common,
    sql`starts_at >= ${since}`,
    ...(window.to ? [sql`starts_at < ${at(window.to)}`] : []),
    matching("search_words"),
  ];
  const selects = [
    sql`(SELECT ${columns}, 0 AS part FROM events WHERE ${join(startingIn, " AND ")}
      ORDER BY starts_at, id LIMIT ${lim})`,
  ];
  if (first) {
    const recent = at(new Date(window.from.getTime() - DAY));
    const lookback = at(new Date(window.from.getTime() - ONGOING_LOOKBACK_DAYS * DAY));
    const running = [
      [...common, sql`starts_at >= ${recent}`, sql`starts_at < ${since}`, sql`ends_at >= ${since}`],
      [
        ...common,
        sql`starts_at >= ${lookback}`,
        sql`starts_at < ${recent}`,
        sql`ends_at >= ${since}`,
        sql`${raw(LONG_RUNNING_SQL)}`,
      ],
    ];
    for (const where of running) {
      selects.push(sql`(SELECT ${columns}, 1 AS part FROM (SELECT ${columns}, search_words AS words FROM events
        WHERE ${join(where, " AND ")} OFFSET 0) AS running
    WHERE ${matching("words")} ORDER BY starts_at, id LIMIT ${lim})`);
    }
  }
  const statement = sql`SELECT ${raw(COLUMNS)}, part, ${matchScores(level, "")} FROM (
  SELECT * FROM (
  ${join(selects, "\n  UNION ALL\n  ")}
  ) AS found ORDER BY ${raw(level ? "" : "part, ")}starts_at, id LIMIT ${lim}
) AS soonest`;
  return { text: statement.text, values: statement.values };
}
