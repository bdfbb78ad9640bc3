import "server-only";

/*
 * The assistant's event search: one SQL statement over one account's upcoming, non-cancelled events,
 * optionally within a date range, matching topic words against title, location and description.
 *
 * Each word matches in two ways, both served by the trigram GIN indexes on the three columns:
 * - exactly: a case-insensitive word prefix (`~* '\mpotter'` finds "Pottery"; a plain ILIKE '%art%'
 *   would also find "start" and "party");
 * - with a typo: the word is first corrected against the account's vocabulary (event_words, the words
 *   of its titles and locations; trigram similarity ≥ TYPO_SIMILARITY, about one wrong letter in a
 *   longer word), and the corrections are then matched exactly. Comparing the typo with a few thousand
 *   words instead of every event's text is what keeps a misspelt question as fast as a correct one.
 * Events matching the most words win, exact matches over typo matches, so "wine" finds "Wine tasting"
 * and not "Windmill tour", while "jaz nite" still finds "Jazz Night" through "jaz". Among the winners,
 * title matches come first, then the soonest.
 *
 * "Upcoming" includes events still running (ends_at ≥ now) that started at most ONGOING_LOOKBACK_DAYS
 * earlier: the bound keeps the start-time index usable for date-only questions.
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
export const MAX_RESULTS = 3;
/** Title matches are put first among this many soonest matches of a level. */
export const LEVEL_CANDIDATES = 30;
/** Partial matches are ranked among this many soonest events matching any word. */
export const PARTIAL_CANDIDATES = 100;
/** pg_trgm similarity from which a vocabulary word counts as the intended one ("tastng" ~ "tasting": 0.5). */
export const TYPO_SIMILARITY = 0.5;
/** At most this many corrections per word, the most similar first. */
export const TYPO_CORRECTIONS = 3;

type Row = {
  id: string;
  title: string;
  starts_at: Date;
  ends_at: Date | null;
  location: string;
  url: string;
  price: string;
  matched: number;
};

/** The form of a word matched exactly: plural "s" dropped, so "workshops" finds "Workshop". */
export function stem(word: string): string {
  return word.length >= 4 && word.endsWith("s") && !word.endsWith("ss") ? word.slice(0, -1) : word;
}

/**
 * `\m` + the word: a case-insensitive match at the start of a word. Topic words arrive folded
 * ("muller"); when the visitor typed accents ("Müller") that form is tried too, since the stored text is
 * not folded. (Character classes for every accent would defeat the trigram index.)
 */
export function wordPattern(word: string, typed?: string): string {
  return typed && typed !== word ? `\\m(${word}|${typed})` : `\\m${word}`;
}

// A price that says free, or a zero amount ("0", "€0", "0.00 EUR"); an empty price is unknown, not free.
export const FREE_PRICE_SQL = `(price ~* '\\m(free|gratis|kostenlos)\\M' OR price ~ '^[^0-9]*0+([.,]0+)?[^0-9]*$')`;

const clampLimit = (limit: number | undefined) => Math.min(Math.max(Math.trunc(limit ?? MAX_RESULTS), 1), 20);

export function buildSearch(input: SearchInput): { text: string; values: unknown[] } {
  const values: unknown[] = [input.accountId];
  const param = (value: unknown, cast: string) => `$${values.push(value)}::${cast}`;
  const earliest = new Date(Math.max(input.now.getTime(), input.range?.from.getTime() ?? 0));
  const lookback = new Date(earliest.getTime() - ONGOING_LOOKBACK_DAYS * 86_400_000);
  const since = param(earliest.toISOString(), "timestamptz");
  const where = [
    "account_id = $1::uuid",
    "status = 'upcoming'",
    `starts_at >= ${param(lookback.toISOString(), "timestamptz")}`,
    `(starts_at >= ${since} OR ends_at >= ${since})`,
  ];
  if (input.range) where.push(`starts_at < ${param(input.range.to.toISOString(), "timestamptz")}`);
  if (input.free) where.push(FREE_PRICE_SQL);
  const limit = clampLimit(input.limit);
  const columns = "id, title, starts_at, ends_at, location, url, price";

  // Events already running are listed after those starting in the range.
  const ongoing = `starts_at < ${since} AS ongoing`;
  if (input.topic.length === 0) {
    const base = where.join(" AND ");
    const text = `SELECT ${columns}, 0 AS matched FROM (
  (SELECT ${columns}, 0 AS part FROM events WHERE ${base} AND starts_at >= ${since} ORDER BY starts_at, id LIMIT ${limit})
  UNION ALL
  (SELECT ${columns}, 1 FROM events WHERE ${base} AND starts_at < ${since} ORDER BY starts_at, id LIMIT ${limit})
) AS found ORDER BY part, starts_at, id LIMIT ${limit}`;
    return { text, values };
  }
  const exact: string[] = [];
  const match: string[] = [];
  const inTitle: string[] = [];
  const corrections: string[] = [];
  input.topic.forEach((word, index) => {
    const stemmed = stem(word);
    const typed = input.typed?.[word];
    const pattern = param(wordPattern(stemmed, typed && stem(typed)), "text");
    const similar = param(stemmed, "text");
    // The word's corrections as one pattern, '\m(tasting|testing)', or NULL (matches nothing) when the
    // vocabulary has none. Vocabulary words are letters and digits only, so they are safe in a pattern.
    corrections.push(`(SELECT '\\m(' || string_agg(word, '|') || ')' FROM (
      SELECT word FROM event_words WHERE account_id = $1::uuid AND word % ${similar} AND word <> ${similar}
        AND similarity(word, ${similar}) >= ${TYPO_SIMILARITY}
      ORDER BY similarity(word, ${similar}) DESC, word LIMIT ${TYPO_CORRECTIONS}) AS near) AS t${index}`);
    const typo = `(SELECT t${index} FROM typos)`;
    const exactly = `(title ~* ${pattern} OR location ~* ${pattern} OR description ~* ${pattern})`;
    exact.push(exactly);
    // Typos are forgiven in title and location, where the vocabulary comes from.
    match.push(`(${exactly} OR title ~* ${typo} OR location ~* ${typo})`);
    inTitle.push(`(title ~* ${pattern} OR title ~* ${typo})`);
  });
  const base = where.join(" AND ");
  const all = (conditions: string[]) => conditions.join(" AND ");
  const any = (conditions: string[]) => `(${conditions.join(" OR ")})`;
  const count = (conditions: string[]) => conditions.map((condition) => `(${condition})::int`).join(" + ");
  const n = input.topic.length;
  // A level is searched only when the levels above found nothing, so most questions cost one index
  // walk or bitmap scan. Within a level, title matches come first among its soonest LEVEL_CANDIDATES.
  const level = (number: number, condition: string, guard: string) => `
    SELECT ${columns}, ${number} AS level, CASE WHEN ${any(inTitle)} THEN 0 ELSE 1 END AS part, ${n} AS matched, ${ongoing} FROM (
      SELECT ${columns} FROM events WHERE ${base} AND ${condition}${guard} ORDER BY starts_at, id LIMIT ${LEVEL_CANDIDATES}
    ) AS soonest`;
  const text = `WITH
  typos AS MATERIALIZED (SELECT ${corrections.join(", ")}),
  exact_all AS MATERIALIZED (${level(1, all(exact), "")}),
  matched_all AS MATERIALIZED (${level(2, all(match), " AND NOT EXISTS (SELECT 1 FROM exact_all)")}),
  partial AS MATERIALIZED (${n === 1 ? `SELECT * FROM matched_all WHERE false` : `
    SELECT ${columns}, 3 AS level, CASE WHEN title_hits > 0 THEN 0 ELSE 1 END AS part, matched, ${ongoing} FROM (
      SELECT *, rank() OVER (ORDER BY matched DESC, exact DESC) AS tier FROM (
        SELECT ${columns}, ${count(match)} AS matched, ${count(exact)} AS exact, ${count(inTitle)} AS title_hits
        FROM (SELECT ${columns}, description FROM events
          WHERE ${base} AND ${any(match)}
            AND NOT EXISTS (SELECT 1 FROM exact_all) AND NOT EXISTS (SELECT 1 FROM matched_all)
          ORDER BY starts_at, id LIMIT ${PARTIAL_CANDIDATES}) AS soonest
      ) AS scored
    ) AS ranked
    WHERE tier = 1`}
  )
SELECT * FROM (SELECT * FROM exact_all UNION ALL SELECT * FROM matched_all UNION ALL SELECT * FROM partial) AS found
ORDER BY level, part, ongoing, starts_at, id
LIMIT ${limit}`;
  return { text, values };
}

export async function searchEvents(client: Queryable, input: SearchInput): Promise<SearchResult> {
  const { text, values } = buildSearch(input);
  const { rows } = await client.query<Row>(text, values);
  const seen = new Set<string>();
  const unique = rows.filter((row) => !seen.has(row.id) && seen.add(row.id)).slice(0, clampLimit(input.limit));
  const events = unique.map((row) => ({
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

/** The plan PostgreSQL runs for a search (EXPLAIN ANALYZE, BUFFERS), for the benchmark's report. */
export async function explainSearch(client: Queryable, input: SearchInput): Promise<string> {
  const { text, values } = buildSearch(input);
  const { rows } = await client.query<{ "QUERY PLAN": string }>(`EXPLAIN (ANALYZE, BUFFERS) ${text}`, values);
  return rows.map((row) => row["QUERY PLAN"]).join("\n");
}
