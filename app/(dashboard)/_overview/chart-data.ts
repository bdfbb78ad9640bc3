import type { HourBucket } from "@/lib/overview/model";

/* The chart's two views, labelled on the account's clock: the last 24 hours by hour, the last 7 days by day. */

export type ChartPoint = { label: string; accepted: number; refused: number; succeeded: number; failed: number };
export type ChartViews = { day: ChartPoint[]; week: ChartPoint[] };

const hourLabels = new Map<string, Intl.DateTimeFormat>();
const dayLabels = new Map<string, Intl.DateTimeFormat>();

function format(cache: Map<string, Intl.DateTimeFormat>, timeZone: string, options: Intl.DateTimeFormatOptions) {
  let found = cache.get(timeZone);
  if (!found) {
    found = new Intl.DateTimeFormat("en-GB", { timeZone, ...options });
    cache.set(timeZone, found);
  }
  return found;
}

const point = (label: string, bucket?: HourBucket): ChartPoint => ({
  label,
  accepted: bucket?.accepted ?? 0,
  refused: bucket?.refused ?? 0,
  succeeded: bucket?.succeeded ?? 0,
  failed: bucket?.failed ?? 0,
});

/*
 * Buckets are UTC hours; each is labelled with the local time it starts at, so a zone at a half-hour
 * offset reads "14:30". A day of the 7-day view is the hours that start on that local date.
 */
export function chartViews(hours: HourBucket[], timeZone: string): ChartViews {
  const hourLabel = format(hourLabels, timeZone, { hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
  const dayLabel = format(dayLabels, timeZone, { weekday: "short", day: "numeric", month: "short" });
  const day = hours.slice(-24).map((bucket) => point(hourLabel.format(bucket.hour), bucket));
  const week: ChartPoint[] = [];
  for (const bucket of hours) {
    const label = dayLabel.format(bucket.hour);
    let last = week.at(-1);
    if (!last || last.label !== label) {
      last = point(label);
      week.push(last);
    }
    last.accepted += bucket.accepted;
    last.refused += bucket.refused;
    last.succeeded += bucket.succeeded;
    last.failed += bucket.failed;
  }
  return { day, week };
}
