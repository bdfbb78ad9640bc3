import { occurrencesBetween, type Occurrence, type Series } from "@/lib/events/occurrences";
import type { Recurrence } from "@/lib/events/schema";
import { DAY, type Row } from "./search-sql";

/*
 * The candidates' occurrences in a window, as search rows (series.ts reads the candidates). A long window
 * holds many occurrences of each series (a month: thirty of a daily class), and the answer lists at most
 * `perSeries` rows, so only occurrences that can be among the first `perSeries` rows of the search's
 * order (title matches, then starting before running, then the soonest) are built: each series' first
 * occurrence is found first, and the `perSeries`-th best of those bounds the others.
 */

/** An open window (a topic with no date) looks this far ahead for a series' next occurrence. */
const OPEN_WINDOW_DAYS = 400;

export type SeriesRow = Row & { recurring: Recurrence; series_starts_at: Date };
export type Candidate = Omit<Row, "part"> & { recurring: Recurrence; exceptions: number[] };
type Window = { from: Date; to: Date | null };

/** The search's order without its last tie-break (the id), so every row tied with the bound is kept. */
type Rank = { inTitle: boolean; part: number; at: number };
const compare = (a: Rank, b: Rank) => Number(b.inTitle) - Number(a.inTitle) || a.part - b.part || a.at - b.at;

function rowOf(candidate: Candidate, occurrence: Occurrence, from: Date): SeriesRow {
  return {
    id: candidate.id,
    title: candidate.title,
    starts_at: occurrence.startsAt,
    ends_at: occurrence.endsAt,
    location: candidate.location,
    url: candidate.url,
    price: candidate.price,
    part: occurrence.startsAt < from ? 1 : 0,
    in_title: candidate.in_title,
    matched: candidate.matched,
    exact: candidate.exact,
    recurring: candidate.recurring,
    series_starts_at: candidate.starts_at,
  };
}

/**
 * Each candidate's occurrences in the window (a question without dates: the next one), at most `perSeries`
 * of each. With `ranked`, only those that can be among the first `perSeries` rows by the search's order;
 * without (a partial match is ranked by its score first), all of them.
 */
export function expandSeries(
  candidates: Candidate[],
  timeZone: string,
  window: Window,
  perSeries: number,
  ranked: boolean,
): SeriesRow[] {
  const to = window.to ?? new Date(window.from.getTime() + OPEN_WINDOW_DAYS * DAY);
  const each = window.to ? perSeries : 1;
  const series = candidates.map((candidate) => ({
    candidate,
    series: {
      startsAt: candidate.starts_at,
      endsAt: candidate.ends_at,
      recurring: candidate.recurring,
      timeZone,
      exceptions: new Set(candidate.exceptions),
    } satisfies Series,
  }));
  const firsts = series.map(({ series }) => occurrencesBetween(series, window.from, to, 1)[0]);
  const rank = (candidate: Candidate, occurrence: Occurrence): Rank => ({
    inTitle: candidate.in_title,
    part: occurrence.startsAt < window.from ? 1 : 0,
    at: occurrence.startsAt.getTime(),
  });
  // A series running at the window's start (a long one: several of its occurrences may be) is expanded
  // whole; any other's later occurrences all start in the window, after its first, so rank below it.
  const running = new Map<number, Occurrence[]>();
  series.forEach(({ series }, index) => {
    if (firsts[index] && firsts[index].startsAt < window.from && each > 1)
      running.set(index, occurrencesBetween(series, window.from, to, each));
  });
  // The perSeries-th best of rows that exist: at least perSeries rows rank at or above it, so none below it is listed.
  const known = series.flatMap(({ candidate }, index) =>
    (running.get(index) ?? (firsts[index] ? [firsts[index]] : [])).map((occurrence) => rank(candidate, occurrence)),
  );
  const bound = ranked && each > 1 && known.length >= perSeries ? known.sort(compare)[perSeries - 1] : null;
  const found: SeriesRow[] = [];
  series.forEach(({ candidate, series }, index) => {
    const first = firsts[index];
    if (!first || (bound && !running.has(index) && compare(rank(candidate, first), bound) > 0)) return;
    // Past the bound's start, an occurrence starting in the window ranks below it.
    const until = bound && bound.part === 0 && bound.inTitle === candidate.in_title ? new Date(bound.at + 1) : to;
    const occurrences =
      running.get(index) ??
      (each === 1 ? [first] : occurrencesBetween(series, window.from, until < to ? until : to, each));
    for (const occurrence of occurrences) {
      if (!bound || compare(rank(candidate, occurrence), bound) <= 0)
        found.push(rowOf(candidate, occurrence, window.from));
    }
  });
  return found;
}
