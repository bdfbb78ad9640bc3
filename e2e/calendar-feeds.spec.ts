import { expect, test } from "@playwright/test";
import { shot, signUp } from "./support";

/*
 * Knowledge → Events → Calendar feeds end to end (docs/calendar-feeds.md): the feed URL on the page is a
 * working iCalendar feed with an ETag; rotating it, after a confirmation, makes the old URL a 404 at once.
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
