import {
  dayOf,
  daysInMonth,
  formatDay,
  formatDays,
  localInstant,
  localToday,
  monthStart,
  partsOf,
  weekdayOf,
  type DayNumber,
} from "./calendar";
import { MONTH_NAMES } from "@/lib/platform/format/date-time";

/*
 * Date expressions in a visitor's message ("this weekend", "on Friday", "in May", "12 June"), read in
 * the account's time zone relative to `now`. Each becomes a half-open UTC range [from, to) and a label
 * for the reply. Numeric dates are read only when unambiguous: ISO "2026-06-12" and the dotted
 * day-first "12.6." / "12.06.2026"; "12/6" is not a date here (12 June or 6 December?).
 * The text must already be folded (lower case, no diacritics: see text.ts).
 */

export type DateRange = { from: Date; to: Date; label: string };
export type DateMatch = { range: DateRange; spans: Array<[number, number]> };

type Context = { today: DayNumber; weekday: number; year: number };
/** Whole days [start, end), optionally from an hour on the first day ("tonight"). */
type Days = { start: DayNumber; end: DayNumber; fromHour?: number; label: string };
type Rule = { pattern: RegExp; priority: number; resolve: (match: RegExpExecArray, context: Context) => Days | null };

const WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"];
const MONTHS: Record<string, number> = Object.fromEntries(
  MONTH_NAMES.flatMap((name, index) => [
    [name.toLowerCase(), index + 1],
    [name.slice(0, 3).toLowerCase(), index + 1],
  ]),
);
MONTHS.sept = 9;
const NUMBERS: Record<string, number> = {
  a: 1,
  an: 1,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  few: 3,
  couple: 2,
};

const MONTH =
  "(january|february|march|april|may|june|july|august|september|october|november|december|" +
  "jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)";
// A month name alone, without "in"/"during" or a day: not "may" (a verb) nor the three-letter forms.
const BARE_MONTH = "(january|february|march|april|june|july|august|september|october|november|december)";
const WEEKDAY = `(${WEEKDAYS.join("|")})s?`;
const COUNT = "(\\d{1,3}|a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|few|couple(?: of)?)";
const ORDINAL = "(\\d{1,2})(?:st|nd|rd|th)?";
const YEAR = "(?:,?\\s+(\\d{4}))?";

const count = (text: string) => NUMBERS[text.replace(" of", "")] ?? Number(text);
const single = (day: DayNumber, label: string, fromHour?: number): Days => ({
  start: day,
  end: day + 1,
  fromHour,
  label,
});
const weekStart = (context: Context) => context.today - context.weekday;

function weekdayDay(name: string, next: boolean, context: Context): DayNumber {
  const target = WEEKDAYS.indexOf(name);
  if (next) return weekStart(context) + 7 + target;
  return context.today + ((target - context.weekday + 7) % 7);
}

/** A day and month with an optional year; without one, the next such date from today on. */
function calendarDate(day: number, month: number, yearText: string | undefined, context: Context): Days | null {
  if (!(month >= 1 && month <= 12)) return null;
  let year = yearText ? Number(yearText) : context.year;
  if (!yearText && day <= daysInMonth(year, month) && dayOf(year, month, day) < context.today) year += 1;
  if (year < 1970 || year > 9999 || day < 1 || day > daysInMonth(year, month)) return null;
  const date = dayOf(year, month, day);
  return single(date, `on ${formatDay(date, context.year)}`);
}

function wholeMonth(month: number, yearText: string | undefined, context: Context): Days {
  let year = yearText ? Number(yearText) : context.year;
  if (!yearText && month < partsOf(context.today).month) year += 1;
  const start = dayOf(year, month, 1);
  return { start, end: monthStart(start, 1), label: `in ${MONTH_NAMES[month - 1]} ${year}` };
}

function weekend(next: boolean, context: Context): Days {
  // On a Sunday "this weekend" is what is left of it: today.
  if (!next && context.weekday === 6)
    return {
      start: context.today,
      end: context.today + 1,
      label: `this weekend, ${formatDay(context.today, context.year)}`,
    };
  const saturday = weekStart(context) + 5 + (next ? 7 : 0);
  return {
    start: saturday,
    end: saturday + 2,
    label: `${next ? "next" : "this"} weekend, ${formatDays(saturday, saturday + 1, context.year)}`,
  };
}

function spanLabel(prefix: string, start: DayNumber, end: DayNumber, context: Context): string {
  return `${prefix}, ${formatDays(start, end - 1, context.year)}`;
}

const RULES: Rule[] = [
  {
    pattern: /\b(\d{4})-(\d{1,2})-(\d{1,2})\b/g,
    priority: 0,
    resolve: (m, c) => calendarDate(Number(m[3]), Number(m[2]), m[1], c),
  },
  {
    pattern: /\b(\d{1,2})\.(\d{1,2})\.(\d{4})?/g,
    priority: 0,
    resolve: (m, c) => calendarDate(Number(m[1]), Number(m[2]), m[3], c),
  },
  {
    pattern: new RegExp(`\\b(?:the\\s+)?${ORDINAL}(?:\\s+of)?\\s+${MONTH}\\b\\.?${YEAR}`, "g"),
    priority: 0,
    resolve: (m, c) => calendarDate(Number(m[1]), MONTHS[m[2]], m[3], c),
  },
  {
    pattern: new RegExp(`\\b${MONTH}\\.?\\s+(?:the\\s+)?${ORDINAL}\\b${YEAR}`, "g"),
    priority: 0,
    resolve: (m, c) => calendarDate(Number(m[2]), MONTHS[m[1]], m[3], c),
  },
  {
    pattern: new RegExp(`\\bin\\s+${COUNT}\\s+(days?|weeks?)\\b`, "g"),
    priority: 0,
    resolve: (m, c) => {
      const n = count(m[1]);
      if (!(n >= 1 && n <= 366)) return null;
      if (m[2].startsWith("day"))
        return single(c.today + n, `in ${n} day${n === 1 ? "" : "s"}, ${formatDay(c.today + n, c.year)}`);
      const start = weekStart(c) + 7 * n;
      return { start, end: start + 7, label: spanLabel(`in ${n} week${n === 1 ? "" : "s"}`, start, start + 7, c) };
    },
  },
  {
    pattern: new RegExp(`\\b(?:the\\s+)?(?:next|coming)\\s+${COUNT}\\s+days\\b`, "g"),
    priority: 0,
    resolve: (m, c) => {
      const n = count(m[1]);
      if (!(n >= 1 && n <= 366)) return null;
      return { start: c.today, end: c.today + n, label: spanLabel(`in the next ${n} days`, c.today, c.today + n, c) };
    },
  },
  {
    pattern: /\b(?:tonight|tonite|2night|this evening)\b/g,
    priority: 1,
    resolve: (_, c) => single(c.today, `tonight, ${formatDay(c.today, c.year)}`, 17),
  },
  {
    pattern: /\b(?:the\s+)?day after (?:tomorrow|tomorow|tommorow|tommorrow)\b/g,
    priority: 1,
    resolve: (_, c) => single(c.today + 2, `the day after tomorrow, ${formatDay(c.today + 2, c.year)}`),
  },
  {
    pattern: /\b(?:tomorrow|tomorow|tommorow|tommorrow|tmrw|tmr)(\s+(?:night|evening))?\b/g,
    priority: 1,
    resolve: (m, c) =>
      single(
        c.today + 1,
        `tomorrow${m[1] ? " evening" : ""}, ${formatDay(c.today + 1, c.year)}`,
        m[1] ? 17 : undefined,
      ),
  },
  { pattern: /\btoday\b/g, priority: 1, resolve: (_, c) => single(c.today, `today, ${formatDay(c.today, c.year)}`) },
  {
    pattern: /\b(?:(this|next|the|coming)\s+)?weekend\b/g,
    priority: 1,
    resolve: (m, c) => weekend(m[1] === "next", c),
  },
  {
    pattern: /\b(this|next|the coming)\s+week\b/g,
    priority: 1,
    resolve: (m, c) => {
      const start = weekStart(c) + (m[1] === "this" ? 0 : 7);
      return {
        start,
        end: start + 7,
        label: spanLabel(`${m[1] === "this" ? "this" : "next"} week`, start, start + 7, c),
      };
    },
  },
  {
    pattern: /\b(this|next)\s+month\b/g,
    priority: 1,
    resolve: (m, c) => {
      const start = monthStart(c.today, m[1] === "next" ? 1 : 0);
      const { year, month } = partsOf(start);
      return { start, end: monthStart(start, 1), label: `${m[1]} month, ${MONTH_NAMES[month - 1]} ${year}` };
    },
  },
  {
    pattern: new RegExp(`\\b(?:(this|next|on|coming)\\s+)?${WEEKDAY}(\\s+(?:night|evening))?\\b`, "g"),
    priority: 1,
    resolve: (m, c) => {
      const day = weekdayDay(m[2], m[1] === "next", c);
      const evening = m[3] ? 17 : undefined;
      return single(day, `${evening ? "on the evening of" : "on"} ${formatDay(day, c.year)}`, evening);
    },
  },
  {
    pattern: new RegExp(`\\b(?:in|during|for|throughout|through|this|next)\\s+${MONTH}\\b\\.?${YEAR}`, "g"),
    priority: 2,
    resolve: (m, c) => wholeMonth(MONTHS[m[1]], m[2], c),
  },
  {
    pattern: new RegExp(`\\b${BARE_MONTH}\\b${YEAR}`, "g"),
    priority: 2,
    resolve: (m, c) => wholeMonth(MONTHS[m[1]], m[2], c),
  },
];

type Candidate = { start: number; end: number; priority: number; days: Days };

/**
 * The date range a folded message names, with the character spans that named it (so the caller can
 * drop those words from the topic). Several expressions ("Friday or Saturday") give the range that
 * covers them all. Null when the message names no date.
 */
export function findDateRange(folded: string, now: Date, timeZone: string): DateMatch | null {
  const today = localToday(now, timeZone);
  const context: Context = { today, weekday: weekdayOf(today), year: partsOf(today).year };
  const candidates: Candidate[] = [];
  for (const rule of RULES) {
    rule.pattern.lastIndex = 0;
    for (let match = rule.pattern.exec(folded); match; match = rule.pattern.exec(folded)) {
      const days = rule.resolve(match, context);
      if (days)
        candidates.push({ start: match.index, end: match.index + match[0].length, priority: rule.priority, days });
    }
  }
  // Specific readings win over general ones ("12 June" over "June"), then longer over shorter.
  candidates.sort((a, b) => a.priority - b.priority || b.end - b.start - (a.end - a.start) || a.start - b.start);
  const chosen: Candidate[] = [];
  for (const candidate of candidates) {
    if (chosen.every((other) => candidate.end <= other.start || candidate.start >= other.end)) chosen.push(candidate);
  }
  if (chosen.length === 0) return null;
  chosen.sort((a, b) => a.start - b.start);
  const first = chosen.reduce((best, next) => (next.days.start < best.days.start ? next : best));
  const last = chosen.reduce((best, next) => (next.days.end > best.days.end ? next : best));
  const from = localInstant(first.days.start, timeZone, first.days.fromHour ?? 0);
  const to = localInstant(last.days.end, timeZone);
  const label = [...new Set(chosen.map((candidate) => candidate.days.label))].join(" or ");
  return { range: { from, to, label }, spans: chosen.map((candidate) => [candidate.start, candidate.end]) };
}
