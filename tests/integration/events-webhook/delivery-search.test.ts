import { describe, expect, it } from "vitest";
import { db } from "@/lib/platform/db/client";
import { listDeliveries, type ListDeliveriesOptions } from "@/lib/events-webhook/deliveries";
import { expectHandEditedInputReadSafely } from "../../support/log-search";
import { everyPage } from "../../support/pages";
import { zonedDays } from "../../support/zoned-days";
import { createSource, type TestSource } from "./support";

/* Recent Deliveries' search box and date range (the URL's q, from and to), as the page passes them. */

const ZONE = "America/New_York";
const { dayInZone, at } = zonedDays(ZONE);

type Seed = { receivedAt: Date; status: number; title?: string | null; errorCode?: string | null; action?: string };

async function seed(source: TestSource, rows: Seed[]): Promise<void> {
  for (const row of rows)
    await db.pool.query(
      `INSERT INTO webhook_deliveries (account_id, source_id, received_at, status, action, event_title, error_code)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [
        source.accountId,
        source.sourceId,
        row.receivedAt,
        row.status,
        row.action ?? "upsert",
        row.title ?? null,
        row.errorCode ?? null,
      ],
    );
}

const titles = async (source: TestSource, options: ListDeliveriesOptions) =>
  (await listDeliveries(source.accountId, source.sourceId, { timeZone: ZONE, limit: 100, ...options })).items.map(
    (item) => item.eventTitle ?? item.errorCode,
  );

const day = dayInZone(5);
const nextDay = dayInZone(4);
const SAMPLE: Seed[] = [
  { receivedAt: at(dayInZone(6), "23:59:59"), status: 200, title: "Before the range" },
  { receivedAt: at(day, "00:00"), status: 200, title: "Spring Open Day" },
  { receivedAt: at(day, "09:30"), status: 401, errorCode: "invalid_signature" },
  { receivedAt: at(day, "12:00"), status: 200, title: "Autumn OPEN evening", action: "cancel" },
  { receivedAt: at(nextDay, "20:00"), status: 503, errorCode: "storage_unavailable" },
  { receivedAt: at(nextDay, "23:59:59"), status: 422, title: "Late open call", errorCode: "invalid_event" },
  { receivedAt: at(dayInZone(3), "00:00"), status: 200, title: "After the range" },
];

describe("searching Recent Deliveries", () => {
  it("finds an event title case-insensitively, an error code or an HTTP status", async () => {
    const source = await createSource();
    await seed(source, SAMPLE);
    expect(await titles(source, { search: "open" })).toEqual([
      "Late open call",
      "Autumn OPEN evening",
      "Spring Open Day",
    ]);
    expect(await titles(source, { search: "SIGNATURE" })).toEqual(["invalid_signature"]);
    expect(await titles(source, { search: "503" })).toEqual(["storage_unavailable"]);
    expect(await titles(source, { search: " 401 " })).toEqual(["invalid_signature"]);
    // Combined with the action and status filters of the same page.
    expect(await titles(source, { search: "open", action: "cancel" })).toEqual(["Autumn OPEN evening"]);
    expect(await titles(source, { search: "open", statusClass: "4xx" })).toEqual(["Late open call"]);
    expect(await titles(source, { search: "nothing like this" })).toEqual([]);
  });

  it("shows whole days from From to To in the account's time zone", async () => {
    const source = await createSource();
    await seed(source, SAMPLE);
    expect(await titles(source, { from: day, to: nextDay })).toEqual([
      "Late open call",
      "storage_unavailable",
      "Autumn OPEN evening",
      "invalid_signature",
      "Spring Open Day",
    ]);
    expect(await titles(source, { from: nextDay })).toEqual([
      "After the range",
      "Late open call",
      "storage_unavailable",
    ]);
    expect(await titles(source, { to: day })).toEqual([
      "Autumn OPEN evening",
      "invalid_signature",
      "Spring Open Day",
      "Before the range",
    ]);
    expect(await titles(source, { from: day, to: day, search: "open" })).toEqual([
      "Autumn OPEN evening",
      "Spring Open Day",
    ]);
    // The same days in UTC start five hours earlier: midnight in New York is not the day's first entry there.
    const utc = await listDeliveries(source.accountId, source.sourceId, { from: day, to: day, timeZone: "UTC" });
    expect(utc.items.map((item) => item.eventTitle ?? item.errorCode)).toEqual([
      "Autumn OPEN evening",
      "invalid_signature",
      "Spring Open Day",
      "Before the range",
    ]);
  });

  it("keeps the search and range across pages, with no skips or repeats", async () => {
    const source = await createSource();
    await seed(
      source,
      Array.from({ length: 23 }, (_, n) => ({
        receivedAt: at(day, `10:${String(n).padStart(2, "0")}`),
        status: n % 2 ? 200 : 404,
        title: n % 3 ? `Open day ${n}` : `Closed ${n}`,
      })),
    );
    const filter = { search: "open day", from: day, to: day, timeZone: ZONE, limit: 4 };
    const pages = await everyPage(
      (cursor) => listDeliveries(source.accountId, source.sourceId, { ...filter, cursor }),
      (page) => page.olderCursor,
    );
    const seen = pages.flatMap((page) => page.items.map((item) => item.eventTitle!));
    const expected = Array.from({ length: 23 }, (_, n) => n)
      .filter((n) => n % 3)
      .reverse()
      .map((n) => `Open day ${n}`);
    expect(seen).toEqual(expected);
    expect(seen).toHaveLength(15);
    // From the last page (entries 13–15), "newer" goes back to entries 9–12.
    const back = await listDeliveries(source.accountId, source.sourceId, {
      ...filter,
      cursor: pages[pages.length - 1].newerCursor,
      direction: "newer",
    });
    expect(back.items.map((item) => item.eventTitle)).toEqual(expected.slice(8, 12));
  });

  it("never shows another account's deliveries, whatever the search", async () => {
    const owner = await createSource();
    const other = await createSource();
    await seed(owner, SAMPLE);
    await seed(other, [{ receivedAt: at(day, "10:00"), status: 200, title: "Spring Open Day elsewhere" }]);
    expect(await titles(owner, { search: "elsewhere" })).toEqual([]);
    expect(await titles(other, { search: "open" })).toEqual(["Spring Open Day elsewhere"]);
    for (const sourceId of [owner.sourceId, owner.publicId])
      expect((await listDeliveries(other.accountId, sourceId, { search: "open", from: day })).items).toEqual([]);
  });

  it("reads hand-edited input safely: a 10,000-character search, dates that are not dates, To before From", async () => {
    const source = await createSource();
    await seed(source, SAMPLE);
    const all = await expectHandEditedInputReadSafely(
      (filter) => titles(source, filter),
      { day, nextDay },
      SAMPLE.length,
    );
    expect(await titles(source, { search: ["open"], timeZone: "Not/AZone" })).toEqual(all);
  });
});
