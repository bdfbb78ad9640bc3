import "server-only";
import crypto from "node:crypto";
import { onOneConnection } from "@/lib/platform/db/connection";
import type { Recurrence } from "@/lib/events/schema";
import type { Queryable, SearchInput } from "./search-input";
import { candidateQuery, correctionsSql, DAY, type Level, type Row, type Window } from "./search-sql";
import { seriesOccurrences, type SeriesRow } from "./series";

/*
 * The assistant's event search over one account's upcoming, non-cancelled events, optionally within a
 * date range, matching topic words against title, location and description (docs/assistant.md).
 *
 * A topic word matches an event that has a word starting with it ("potter" finds "Pottery"; "art" does
 * not find "start" or "party"). events.search_words holds every word of the three texts with each of
 * its prefixes (a trigger keeps it, see the event_search_words migration), so that test is one GIN
 * lookup, and the planner can weigh a rare word (use the index) against a common one (walk the events
 * by start time and stop at the first few matches) from the real values.
 *
 * Candidates are the soonest events of a level, looked for in the next FIRST_WINDOW_DAYS first and
 * beyond only when those are too few: a plan chosen on a misestimate (words that always come together,
 * like "pottery workshop", are far more frequent together than the planner assumes) then still costs a
 * bounded walk, not a sort of every match.
 *
 * Levels, each searched only when the ones before found nothing, so most questions are one statement:
 * 1. every word, as written (plural "s" dropped; accents as typed too);
 * 2. every word, as written or corrected: a word is corrected against the account's vocabulary
 *    (event_words, the words of its titles and locations; trigram similarity ≥ TYPO_SIMILARITY, about
 *    one wrong letter in a longer word). Comparing a typo with a few thousand words instead of every
 *    event's text keeps a misspelt question as fast as a correct one;
 * 3. with several words: the events matching the most of them, exact matches over corrected ones.
 * So "wine" finds "Wine tasting" and not "Windmill tour", while "jaz nite" still finds "Jazz Night"
 * through "jaz". Within a level, title matches come first among its soonest candidates, then the soonest.
 *
 * "Upcoming" includes events still running (ends_at ≥ now) that started at most ONGOING_LOOKBACK_DAYS
 * earlier; they come after the events starting in the range (candidateQuery says how they are found).
 */

export type { Queryable, SearchInput, Statement } from "./search-input";

export type FoundEvent = {
  id: string;
  title: string;
  startsAt: Date;
  endsAt: Date | null;
  location: string;
  url: string;
  price: string;
  /** How many of the topic words this event matched. */
  matched: number;
  /** For an occurrence of a series: how it repeats, and the series' first start. */
  recurring: Recurrence;
  seriesStartsAt: Date;
};

/** `more`: matches beyond `events` were found (the list was cut at the limit). */
export type SearchResult = { events: FoundEvent[]; complete: boolean; more: boolean };

export const FIRST_WINDOW_DAYS = 14;
export const MAX_RESULTS = 3;
/** Title matches are put first among this many soonest matches of a level. */
export const LEVEL_CANDIDATES = 30;
/**
 * Partial matches are ranked among this many soonest events matching any word. Any word is often a
 * common one, so these are found by walking the events in time order: 100 made the partial level the
 * slowest statement of the assistant, three times as slow as with 30.
 */
export const PARTIAL_CANDIDATES = 30;
/** search_words keeps prefixes up to this length (the migration's cap). */
const MAX_PREFIX = 40;

/** The form of a word matched exactly: plural "s" dropped, so "workshops" finds "Workshop". */
export function stem(word: string): string {
  return word.length >= 4 && word.endsWith("s") && !word.endsWith("ss") ? word.slice(0, -1) : word;
}

/**
 * The prefixes a topic word is looked up as. Topic words arrive folded ("muller"); when the visitor
 * typed accents ("Müller") that form is tried too, since the stored words are not folded.
 */
export function wordForms(word: string, typed?: string): string[] {
  const forms = [stem(word), ...(typed ? [stem(typed)] : [])].map((form) => form.slice(0, MAX_PREFIX));
  return [...new Set(forms)];
}

const clampLimit = (limit: number | undefined) => Math.min(Math.max(Math.trunc(limit ?? MAX_RESULTS), 1), 20);

/**
 * The soonest `limit` candidates (without topic words: starting events before running ones): from the
 * first FIRST_WINDOW_DAYS of the range, then, if too few, from the rest of it.
 */
async function candidates(client: Queryable, input: SearchInput, level: Level | null, limit: number): Promise<Row[]> {
  const from = new Date(Math.max(input.now.getTime(), input.range?.from.getTime() ?? 0));
  const to = input.range?.to ?? null;
  const split = new Date(from.getTime() + FIRST_WINDOW_DAYS * DAY);
  const whole = to !== null && to <= split;
  const rows = async (window: Window, first: boolean, count: number) => {
    const { text, values } = candidateQuery(input, level, window, first, count);
    // Topic words are planned with their values (the planner weighs each word's frequency). Without them
    // only the window's bounds change, so a named statement keeps one plan per connection.
    if (level) return (await client.query<Row>(text, values)).rows;
    const name = `assistant-events-${crypto.createHash("sha1").update(text).digest("hex").slice(0, 16)}`;
    return (await client.query<Row>({ name, text, values })).rows;
  };
  // Without topic words the soonest occurrences win: series are read for the first window first, as
  // events are, and for the rest only when that window has too few. One more than the answer's length,
  // so the answer knows whether there are more.
  const perSeries = clampLimit(input.limit) + 1;
  const seriesWindow = { from, to: level || (to !== null && to <= split) ? to : split };
  let series = await seriesOccurrences(client, input, level, seriesWindow, limit, perSeries);
  if (seriesWindow.to !== to && series.filter((row) => row.part === 0).length < perSeries) {
    series = await seriesOccurrences(client, input, level, { from, to }, limit, perSeries);
  }
  const found = await rows({ from, to: whole ? to : split }, true, limit);
  // Without topic words, running events come after every starting one: only starting ones count.
  const enough = (level ? found : found.filter((row) => row.part === 0)).length >= limit;
  if (whole || enough) return [...found, ...series];
  // The later window starts after every event of the first: it adds the soonest of the rest.
  const starting = found.filter((row) => row.part === 0).length;
  return [...found, ...(await rows({ from: split, to }, false, limit - (level ? found.length : starting))), ...series];
}

/** Title matches first, then events starting in the range before those already running, then the soonest. */
function byRank(a: Row, b: Row): number {
  return (
    Number(b.in_title) - Number(a.in_title) ||
    a.part - b.part ||
    a.starts_at.getTime() - b.starts_at.getTime() ||
    (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
  );
}

/** Each word's closest vocabulary words (not the word itself), the most similar first; [] for none. */
async function corrections(client: Queryable, accountId: string, words: string[]): Promise<string[][]> {
  const { rows } = await client.query<{ i: number; near: string[] }>(correctionsSql("$1::uuid", "$2::text[]"), [
    accountId,
    words,
  ]);
  const found = new Map(rows.map((row) => [row.i, row.near]));
  return words.map((_, index) => found.get(index + 1) ?? []);
}

async function findRows(client: Queryable, input: SearchInput, limit: number): Promise<Row[]> {
  // One more than asked, so the answer can say that there are more.
  if (input.topic.length === 0) return candidates(client, input, null, limit + 1);
  const exact = input.topic.map((word) => wordForms(word, input.typed?.[word]));
  const found = await candidates(client, input, { words: exact, exact, every: true }, LEVEL_CANDIDATES);
  if (found.length > 0) return found;
  const near = await corrections(client, input.accountId, input.topic.map(stem));
  const widened = exact.map((forms, index) => [...new Set([...forms, ...near[index]])]);
  if (near.some((words) => words.length > 0)) {
    const corrected = await candidates(client, input, { words: widened, exact, every: true }, LEVEL_CANDIDATES);
    if (corrected.length > 0) return corrected;
  }
  if (input.topic.length === 1) return [];
  const partial = await candidates(client, input, { words: widened, exact, every: false }, PARTIAL_CANDIDATES);
  const best = (row: Row) => row.matched * (input.topic.length + 1) + row.exact;
  const top = Math.max(...partial.map(best));
  return partial.filter((row) => best(row) === top);
}

export async function searchEvents(client: Queryable, input: SearchInput): Promise<SearchResult> {
  const limit = clampLimit(input.limit);
  // A question may take several statements (levels, windows, corrections): one wait for a connection.
  const found = (await onOneConnection(client, (connection) => findRows(connection, input, limit))).sort(byRank);
  const rows = found.slice(0, limit);
  const events = rows.map((row) => ({
    id: row.id,
    title: row.title,
    startsAt: row.starts_at,
    endsAt: row.ends_at,
    location: row.location,
    url: row.url,
    price: row.price,
    matched: Number(row.matched),
    recurring: (row as Partial<SeriesRow>).recurring ?? "",
    seriesStartsAt: (row as Partial<SeriesRow>).series_starts_at ?? row.starts_at,
  }));
  return {
    events,
    complete: events.length > 0 && events[0].matched === input.topic.length,
    more: found.length > limit,
  };
}

/**
 * The plans PostgreSQL runs for a search, statement by statement (EXPLAIN ANALYZE, BUFFERS), for the benchmark's
 * report.
 */
export async function explainSearch(client: Queryable, input: SearchInput): Promise<string> {
  const plans: string[] = [];
  const explaining: Queryable = {
    query: async (statement, values) => {
      const text = typeof statement === "string" ? statement : statement.text;
      const params = typeof statement === "string" ? values : statement.values;
      const { rows } = await client.query<{ "QUERY PLAN": string }>(`EXPLAIN (ANALYZE, BUFFERS) ${text}`, params);
      plans.push(rows.map((row) => row["QUERY PLAN"]).join("\n"));
      return client.query(statement, values);
    },
  };
  await searchEvents(explaining, input);
  return plans.join("\n\n");
}
