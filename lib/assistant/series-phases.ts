import type { Recurrence } from "@/lib/events/schema";

/*
 * A series' phase: where its first occurrence falls in its cycle on the account's wall clock, in
 * minutes: of the day (daily), of the week from Sunday (weekly), of a 31-day month (monthly), of a year
 * of twelve 31-day months (yearly). The database keeps it per series (events.series_phase, set by the
 * series_phase migration's SQL function, which this mirrors), so the assistant can read the series that
 * may occur in a window as a few ranges of one index. Phases only narrow and order candidates; the
 * occurrences themselves come from lib/events/occurrences.ts.
 */

export type Kind = Exclude<Recurrence, "">;
export type PhaseRange = [from: number, to: number];

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;
const DAY_MINUTES = 1440;
export const KINDS: Kind[] = ["daily", "weekly", "monthly", "yearly"];
/** Days in a cycle of phases. */
const CYCLE_DAYS: Record<Kind, number> = { daily: 1, weekly: 7, monthly: 31, yearly: 372 };
/**
 * Wall-clock margin either side of a window: an occurrence in a DST gap is an hour later than its phase
 * says, and the database's zone data may be a release apart from Intl's.
 */
const MARGIN_MINUTES = 60;

/** The phase day (0-based) of a wall-clock date: the day of the cycle it falls on. */
function phaseDay(kind: Kind, date: Date): number {
  switch (kind) {
    case "daily":
      return 0;
    case "weekly":
      return date.getUTCDay();
    case "monthly":
      return date.getUTCDate() - 1;
    case "yearly":
      return date.getUTCMonth() * 31 + date.getUTCDate() - 1;
  }
}

/** The phase of a wall-clock time (ms on the zone's clock) for a kind of series. */
export function phaseOf(kind: Kind, wall: number): number {
  const date = new Date(wall);
  return phaseDay(kind, date) * DAY_MINUTES + date.getUTCHours() * 60 + date.getUTCMinutes();
}

const cycle = (kind: Kind) => CYCLE_DAYS[kind] * DAY_MINUTES;

/** The whole cycle, starting at the phase of `wall`: what an open or long window reads. */
function wholeCycle(kind: Kind, wall: number): PhaseRange[] {
  const start = phaseOf(kind, wall);
  return start === 0
    ? [[0, cycle(kind)]]
    : [
        [start, cycle(kind)],
        [0, start],
      ];
}

/**
 * Phase days with no date in some months (the 29th–31st of a monthly cycle, 29 February–31 February and
 * every 31st of a 30-day month in a yearly one): a gap of at most this many between two ranges is read
 * through, which keeps a window to at most two ranges at the cost of a few more candidates.
 */
const GAP_DAYS = 3;

/** The phase ranges of the wall-clock span [first, last), in the order the span meets them. */
function spanRanges(kind: Kind, first: number, last: number): PhaseRange[] {
  const ranges: PhaseRange[] = [];
  for (let day = Math.floor(first / DAY_MS) * DAY_MS; day < last; day += DAY_MS) {
    const base = phaseDay(kind, new Date(day)) * DAY_MINUTES;
    const low = base + Math.max(0, Math.floor((first - day) / MINUTE_MS));
    const high = base + Math.min(DAY_MINUTES, Math.ceil((last - day) / MINUTE_MS));
    const previous = ranges[ranges.length - 1];
    if (previous && low >= previous[1] && low - previous[1] <= GAP_DAYS * DAY_MINUTES) previous[1] = high;
    else if (high > low) ranges.push([low, high]);
  }
  return ranges;
}

/**
 * The phase ranges a kind's series must fall in to start an occurrence in the wall-clock window
 * [from, to) (to = null: open), in the order the window meets them: at most two (the second when the
 * window passes the end of the cycle). A margin after the window covers an occurrence moved an hour
 * later by a DST gap and zone data a release apart; one moved into the window from the hour before it
 * (a 01:30 class on the night clocks skip 01:00–02:00, asked about from 02:00) is not looked for.
 */
export function phaseRanges(kind: Kind, from: number, to: number | null): PhaseRange[] {
  const margin = MARGIN_MINUTES * MINUTE_MS;
  if (to === null || to + margin - from >= CYCLE_DAYS[kind] * DAY_MS) return wholeCycle(kind, from);
  const ranges = spanRanges(kind, from, to + margin);
  return ranges.length <= 2 ? ranges : wholeCycle(kind, from);
}

/** The phase of `wall` per kind and the cycle lengths, for the statements' arithmetic. */
export function phasesAt(wall: number): Record<Kind, { phase: number; cycle: number }> {
  return Object.fromEntries(KINDS.map((kind) => [kind, { phase: phaseOf(kind, wall), cycle: cycle(kind) }])) as Record<
    Kind,
    { phase: number; cycle: number }
  >;
}
