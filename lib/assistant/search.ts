import "server-only";

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

export type Queryable = { query: <R extends object>(text: string, values?: unknown[]) => Promise<{ rows: R[] }> };

export type SearchInput = {
  accountId: string;
  now: Date;
  range: { from: Date; to: Date } | null;
  topic: string[];
  /** A topic word as typed, when folding changed it ("muller" → "müller"). */
  typed?: Record<string, string>;
  free: boolean;
  limit?: number;
};

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
};

export type SearchResult = { events: FoundEvent[]; complete: boolean };

export const ONGOING_LOOKBACK_DAYS = 14;
export const FIRST_WINDOW_DAYS = 14;
export const MAX_RESULTS = 3;
/** Title matches are put first among this many soonest matches of a level. */
export const LEVEL_CANDIDATES = 30;
/** Partial matches are ranked among this many soonest events matching any word. */
export const PARTIAL_CANDIDATES = 100;
/** pg_trgm similarity from which a vocabulary word counts as the intended one ("tastng" ~ "tasting": 0.5). */
export const TYPO_SIMILARITY = 0.5;
/** At most this many corrections per word, the most similar first. */
export const TYPO_CORRECTIONS = 3;
/** search_words keeps prefixes up to this length (the migration's cap). */
const MAX_PREFIX = 40;
const DAY = 86_400_000;

type Row = {
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

// A price that says free, or a zero amount ("0", "€0", "0.00 EUR"); an empty price is unknown, not free.
export const FREE_PRICE_SQL = `(price ~* '\\m(free|gratis|kostenlos)\\M' OR price ~ '^[^0-9]*0+([.,]0+)?[^0-9]*$')`;

// The partial index events_long_running_idx has this predicate; a query must repeat it to use the index.
const LONG_RUNNING_SQL = "ends_at - starts_at > interval '1 day'";

const COLUMNS = "id, title, starts_at, ends_at, location, url, price";

const clampLimit = (limit: number | undefined) => Math.min(Math.max(Math.trunc(limit ?? MAX_RESULTS), 1), 20);

/** What a level looks for: every word (`exact` forms, or `widened` with corrections), or any of them. */
type Level = { words: string[][]; exact: string[][]; every: boolean };

/** Start times searched by one statement: [from, to), to = null for no end. */
type Window = { from: Date; to: Date | null };

/**
 * The soonest `limit` candidates of a level in a window, as one statement: events starting in the
 * window, and (for the first window) those already running at its start. Running events are found in
 * two bounded walks instead of one over every event of the last ONGOING_LOOKBACK_DAYS, most of which
 * have ended: events that started within the last day, and the few longer ones (events_long_running_idx).
 * Those few are filtered by the topic words after the walk (OFFSET 0 keeps the planner from pushing the
 * words into it), which is cheaper than another lookup in the word index.
 */
function candidateQuery(input: SearchInput, level: Level | null, window: Window, first: boolean, limit: number) {
  const values: unknown[] = [input.accountId];
  const param = (value: unknown, cast: string) => `$${values.push(value)}::${cast}`;
  const at = (time: Date) => param(time.toISOString(), "timestamptz");
  const since = at(window.from);
  const common = ["account_id = $1::uuid", "status = 'upcoming'"];
  if (input.free) common.push(FREE_PRICE_SQL);
  // Every word (each: any of its forms), or any word at all.
  const wordSets = !level ? [] : (level.every ? level.words : [level.words.flat()]).map((forms) => param(forms, "text[]"));
  const matching = (column: string) => (wordSets.length === 0 ? "true" : wordSets.map((set) => `${column} && ${set}`).join(" AND "));
  const columns = `${COLUMNS}${level && !level.every ? ", search_words" : ""}`;
  const starting = [...common, `starts_at >= ${since}`, ...(window.to ? [`starts_at < ${at(window.to)}`] : []), matching("search_words")];
  const selects = [`(SELECT ${columns}, 0 AS part FROM events WHERE ${starting.join(" AND ")} ORDER BY starts_at, id LIMIT ${limit})`];
  if (first) {
    const recent = at(new Date(window.from.getTime() - DAY));
    const lookback = at(new Date(window.from.getTime() - ONGOING_LOOKBACK_DAYS * DAY));
    const running = [
      [...common, `starts_at >= ${recent}`, `starts_at < ${since}`, `ends_at >= ${since}`],
      [...common, `starts_at >= ${lookback}`, `starts_at < ${recent}`, `ends_at >= ${since}`, LONG_RUNNING_SQL],
    ];
    for (const where of running) {
      selects.push(`(SELECT ${columns}, 1 AS part FROM (SELECT ${columns}, search_words AS words FROM events WHERE ${where.join(" AND ")} OFFSET 0) AS running
    WHERE ${matching("words")} ORDER BY starts_at, id LIMIT ${limit})`);
    }
  }
  const count = (words: string[][]) => words.map((forms) => `(search_words && ${param(forms, "text[]")})::int`).join(" + ");
  const all = level?.words.length ?? 0;
  const scores = level && !level.every ? `${count(level.words)} AS matched, ${count(level.exact)} AS exact` : `${all} AS matched, ${all} AS exact`;
  // Letters and digits only (topic words and vocabulary words), so safe inside a pattern.
  const inTitle = level ? `title ~* ${param(`\\m(${level.words.flat().join("|")})`, "text")}` : "false";
  const text = `SELECT ${COLUMNS}, part, ${inTitle} AS in_title, ${scores} FROM (
  SELECT * FROM (
  ${selects.join("\n  UNION ALL\n  ")}
  ) AS found ORDER BY ${level ? "" : "part, "}starts_at, id LIMIT ${limit}
) AS soonest`;
  return { text, values };
}

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
    return (await client.query<Row>(text, values)).rows;
  };
  const found = await rows({ from, to: whole ? to : split }, true, limit);
  // Without topic words, running events come after every starting one: only starting ones count.
  const enough = (level ? found : found.filter((row) => row.part === 0)).length >= limit;
  if (whole || enough) return found;
  // The later window starts after every event of the first: it adds the soonest of the rest.
  const starting = found.filter((row) => row.part === 0).length;
  return [...found, ...(await rows({ from: split, to }, false, limit - (level ? found.length : starting)))];
}

/** Title matches first, then events starting in the range before those already running, then the soonest. */
function byRank(a: Row, b: Row): number {
  return Number(b.in_title) - Number(a.in_title) || a.part - b.part || a.starts_at.getTime() - b.starts_at.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/** Each word's closest vocabulary words (not the word itself), the most similar first; [] for none. */
async function corrections(client: Queryable, accountId: string, words: string[]): Promise<string[][]> {
  const { rows } = await client.query<{ i: number; near: string[] }>(
    `SELECT w.i::int AS i, array_agg(near.word ORDER BY near.similarity DESC, near.word) AS near
     FROM unnest($2::text[]) WITH ORDINALITY AS w(word, i),
       LATERAL (SELECT e.word, similarity(e.word, w.word) AS similarity FROM event_words e
         WHERE e.account_id = $1::uuid AND e.word % w.word AND e.word <> w.word AND similarity(e.word, w.word) >= ${TYPO_SIMILARITY}
         ORDER BY similarity(e.word, w.word) DESC, e.word LIMIT ${TYPO_CORRECTIONS}) AS near
     GROUP BY w.i`,
    [accountId, words],
  );
  const found = new Map(rows.map((row) => [row.i, row.near]));
  return words.map((_, index) => found.get(index + 1) ?? []);
}

async function findRows(client: Queryable, input: SearchInput, limit: number): Promise<Row[]> {
  if (input.topic.length === 0) return candidates(client, input, null, limit);
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
  const rows = (await findRows(client, input, limit)).sort(byRank).slice(0, limit);
  const events = rows.map((row) => ({
    id: row.id,
    title: row.title,
    startsAt: row.starts_at,
    endsAt: row.ends_at,
    location: row.location,
    url: row.url,
    price: row.price,
    matched: Number(row.matched),
  }));
  return { events, complete: events.length > 0 && events[0].matched === input.topic.length };
}

/** The plans PostgreSQL runs for a search, statement by statement (EXPLAIN ANALYZE, BUFFERS), for the benchmark's report. */
export async function explainSearch(client: Queryable, input: SearchInput): Promise<string> {
  const plans: string[] = [];
  const explaining: Queryable = {
    query: async (text, values) => {
      const { rows } = await client.query<{ "QUERY PLAN": string }>(`EXPLAIN (ANALYZE, BUFFERS) ${text}`, values);
      plans.push(rows.map((row) => row["QUERY PLAN"]).join("\n"));
      return client.query(text, values);
    },
  };
  await searchEvents(explaining, input);
  return plans.join("\n\n");
}
