import { expect, test } from "@playwright/test";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { shot, signUp } from "./support";

/*
 * Knowledge → Events → Calendar feeds end to end (docs/calendar-feeds.md): the feed URL on the page is a
 * working iCalendar feed with an ETag; rotating it, after a confirmation, makes the old URL a 404 at once.
 * "Follow a calendar": a feed served from this process on loopback (the e2e server runs with
 * OUTBOUND_ALLOW_LOOPBACK_TARGETS=1) is added, synced by the server's worker, and its events, a series
 * included, appear in All Events; a feed that answers 404 says so in words.
 */

test("the feed URL serves the account's calendar, and rotating it retires the old URL at once", async ({
  page,
  request,
}) => {
  await signUp(page, "Hedy");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Calendar feeds" }).first().click();
  await expect(page).toHaveURL(/\/knowledge\/events\/calendar-feeds$/);
  await expect(page.getByRole("heading", { name: "Publish your events" })).toBeVisible();

  const field = page.getByRole("textbox", { name: "Your feed URL" });
  const original = await field.inputValue();
  expect(original).toMatch(/\/api\/v1\/events\/calendar\/[A-Za-z0-9_-]{43}\.ics$/);
  await shot(page, "calendar-feeds", { hideToasts: true });

  const feed = await request.get(original);
  expect(feed.status()).toBe(200);
  expect(feed.headers()["content-type"]).toBe("text/calendar; charset=utf-8");
  expect(await feed.text()).toMatch(/^BEGIN:VCALENDAR\r\n[\s\S]*END:VCALENDAR\r\n$/);
  const etag = feed.headers()["etag"];
  expect((await request.get(original, { headers: { "If-None-Match": etag } })).status()).toBe(304);

  // Cancelling the confirmation keeps the URL.
  await page.getByRole("button", { name: "Rotate feed URL" }).click();
  const confirm = page.getByRole("alertdialog");
  await expect(confirm).toContainText("stops working immediately");
  await confirm.getByRole("button", { name: "Cancel" }).click();
  await expect(confirm).toBeHidden();
  await expect(field).toHaveValue(original);

  await page.getByRole("button", { name: "Rotate feed URL" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Rotate", exact: true }).click();
  await expect(page.getByText("This is the new feed URL")).toBeVisible();
  await expect(field).not.toHaveValue(original);
  const rotated = await field.inputValue();

  const old = await request.get(original);
  expect(old.status()).toBe(404);
  expect(await old.json()).toMatchObject({ ok: false, error: { code: "not_found" } });
  const fresh = await request.get(rotated);
  expect(fresh.status()).toBe(200);
  expect(await fresh.text()).toContain("BEGIN:VCALENDAR");

  // The page shows the new URL on the next visit too.
  await page.reload();
  await expect(page.getByRole("textbox", { name: "Your feed URL" })).toHaveValue(rotated);
});

const stamp = (date: Date) =>
  date
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}/, "");

/** A calendar with a weekly class that began last week and a concert in ten days, both at a whole hour (UTC). */
function venueCalendar(concertTitle: string): string {
  const hour = new Date();
  hour.setUTCMinutes(0, 0, 0);
  const classStart = new Date(hour.getTime() - 6 * 86_400_000);
  const concert = new Date(hour.getTime() + 10 * 86_400_000);
  return [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:-//E2E//Venue//EN",
    "BEGIN:VEVENT",
    "UID:class@venue.example",
    `DTSTART:${stamp(classStart)}`,
    `DTEND:${stamp(new Date(classStart.getTime() + 3_600_000))}`,
    "RRULE:FREQ=WEEKLY",
    "SUMMARY:Feed Pottery Class",
    "LOCATION:Studio 4",
    "END:VEVENT",
    "BEGIN:VEVENT",
    "UID:concert@venue.example",
    `DTSTART:${stamp(concert)}`,
    `SUMMARY:${concertTitle}`,
    "END:VEVENT",
    "END:VCALENDAR",
    "",
  ].join("\r\n");
}

test("a followed calendar's events, a series included, appear in All Events after a sync", async ({ page }) => {
  let body = venueCalendar("Feed Winter Concert");
  const server = http.createServer((request, response) => {
    if (request.url === "/venue.ics") response.writeHead(200, { "content-type": "text/calendar" }).end(body);
    else response.writeHead(404).end("no such calendar");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    await signUp(page, "Grace");
    await page.goto("/knowledge/events/calendar-feeds");
    await expect(page.getByRole("heading", { name: "Follow a calendar" })).toBeVisible();
    await expect(page.getByText("No calendars followed yet")).toBeVisible();

    const add = async (name: string, url: string) => {
      await page.getByRole("button", { name: "Add calendar feed" }).click();
      const dialog = page.getByRole("dialog", { name: "Add calendar feed" });
      await dialog.getByRole("textbox", { name: "Name" }).fill(name);
      await dialog.getByRole("textbox", { name: "Feed URL" }).fill(url);
      await dialog.getByRole("button", { name: "Add feed" }).click();
      await expect(dialog).toBeHidden();
    };

    // A refused URL keeps the dialog open with the reason on the field.
    await page.getByRole("button", { name: "Add calendar feed" }).click();
    const dialog = page.getByRole("dialog", { name: "Add calendar feed" });
    await dialog.getByRole("textbox", { name: "Name" }).fill("Intranet");
    await dialog.getByRole("textbox", { name: "Feed URL" }).fill("http://10.0.0.8/calendar.ics");
    await dialog.getByRole("button", { name: "Add feed" }).click();
    await expect(dialog).toContainText("private or local network address");
    await dialog.getByRole("button", { name: "Cancel" }).click();

    await add("Venue calendar", `${base}/venue.ics`);
    const table = page.getByRole("table", { name: "Calendar feeds" });
    const venue = table.getByRole("row").filter({ hasText: "Venue calendar" });
    await expect(venue).toContainText("Up to date", { timeout: 20_000 });
    await expect(venue).toContainText("2 added");

    await add("Old timetable", `${base}/gone.ics`);
    const gone = table.getByRole("row").filter({ hasText: "Old timetable" });
    await expect(gone).toContainText("Failing", { timeout: 20_000 });
    await expect(gone).toContainText("The server answered 404 (Not Found).");
    await shot(page, "calendar-feeds-follow", { hideToasts: true });

    // The feed changes; Sync now brings the change in.
    body = venueCalendar("Feed Winter Concert (sold out)");
    await venue.getByRole("button", { name: "Sync now" }).click();
    await expect(venue).toContainText("1 updated", { timeout: 20_000 });

    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "All Events" }).click();
    const events = page.getByRole("table", { name: "Events" });
    await expect(events).toContainText("Feed Winter Concert (sold out)");
    await expect(events).toContainText("Feed Pottery Class");
    await expect(events.getByRole("row").filter({ hasText: "Feed Pottery Class" })).toContainText("Repeats weekly");

    // Pausing keeps the events; deleting the feed can keep them as the account's own.
    await page.goto("/knowledge/events/calendar-feeds");
    await venue.getByRole("button", { name: "Pause" }).click();
    await expect(venue).toContainText("Paused");
    await expect(venue.getByRole("button", { name: "Sync now" })).toHaveCount(0);
    await venue.getByRole("button", { name: "Delete" }).click();
    const confirm = page.getByRole("alertdialog");
    await expect(confirm).toContainText("Keep its 2 events");
    await confirm.getByRole("button", { name: "Delete feed" }).click();
    await expect(table.getByRole("row").filter({ hasText: "Venue calendar" })).toHaveCount(0);
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "All Events" }).click();
    await expect(page.getByRole("table", { name: "Events" })).toContainText("Feed Pottery Class");
  } finally {
    server.close();
  }
});
