import { zonedInputToIso } from "@/lib/platform/format/zoned-time";

const DAY_MS = 86_400_000;

/** Days and instants in `zone` as a person enters them in a log's date range (the date and time inputs). */
export function zonedDays(zone: string): {
  /** The calendar day `daysAgo` days before today in the zone, as the date input gives it (YYYY-MM-DD). */
  dayInZone: (daysAgo: number) => string;
  /** An instant given as a wall-clock time on `day` in the zone. */
  at: (day: string, time: string) => Date;
} {
  return {
    dayInZone: (daysAgo) =>
      new Intl.DateTimeFormat("en-CA", { timeZone: zone }).format(new Date(Date.now() - daysAgo * DAY_MS)),
    at: (day, time) => new Date(zonedInputToIso(`${day}T${time}`, zone)!),
  };
}
