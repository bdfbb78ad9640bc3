import { expect, test, type Page } from "@playwright/test";
import { sendSigned, shot, signUp } from "./support";

/*
 * Knowledge → Events end to end: the Webhook page (rotate, test send, Recent Deliveries paging while
 * deliveries arrive) and All Events (CSV import, manual create / edit / delete).
 */

async function revealSecret(page: Page): Promise<string> {
  const hide = page.getByRole("button", { name: "Hide secret" });
  if (!(await hide.isVisible())) await page.getByRole("button", { name: "Reveal secret" }).click();
  await expect(hide).toBeVisible();
  const secret = await page.getByRole("textbox", { name: "Signing secret" }).inputValue();
  expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
  return secret;
}

async function openWebhookPage(page: Page) {
  await page.goto("/knowledge/events/webhook");
  const endpoint = await page.getByRole("textbox", { name: "Endpoint URL" }).inputValue();
  return { endpoint, secret: await revealSecret(page) };
}

test("rotating the secret: cancel keeps it, confirm replaces it, and only the new one signs", async ({
  page,
  request,
}) => {
  await signUp(page, "Grace");
  const { endpoint, secret: original } = await openWebhookPage(page);

  await page.getByRole("button", { name: "Rotate secret" }).click();
  const confirm = page.getByRole("alertdialog");
  await expect(confirm).toContainText("stops working immediately");
  await confirm.getByRole("button", { name: "Cancel" }).click();
  await expect(confirm).toBeHidden();
  expect(await revealSecret(page)).toBe(original);

  await page.getByRole("button", { name: "Rotate secret" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Rotate", exact: true }).click();
  await expect(page.getByText("This is the new signing secret")).toBeVisible();
  const rotated = await page.getByRole("textbox", { name: "Signing secret" }).inputValue();
  expect(rotated).not.toBe(original);

  const withOld = await sendSigned(request, endpoint, original, {
    title: "Signed with the old secret",
    starts_at: "2027-01-01T10:00:00Z",
  });
  expect(withOld.status()).toBe(401);
  expect((await withOld.json()).error.code).toBe("invalid_signature");
  const withNew = await sendSigned(request, endpoint, rotated, {
    title: "Signed with the new secret",
    starts_at: "2027-01-01T10:00:00Z",
  });
  expect(withNew.status()).toBe(200);
  await page.getByRole("button", { name: "I have updated it" }).click();
  await expect(page.getByRole("table", { name: "Recent deliveries" })).toContainText("Signed with the new secret");
});

test("a test send appears in Recent Deliveries and in All Events", async ({ page }) => {
  await signUp(page, "Grace");
  await page.goto("/knowledge/events/webhook");
  await expect(page.getByRole("table", { name: "Recent deliveries" })).toContainText(
    "No deliveries in the last 30 days",
  );
  await page.getByRole("button", { name: "Send test event" }).click();
  await expect(page.getByRole("status", { name: "Test result" })).toContainText("200");

  const deliveries = page.getByRole("table", { name: "Recent deliveries" });
  await expect(deliveries).toContainText("Webhook test event");
  await expect(deliveries).toContainText("upsert");
  await deliveries
    .getByRole("link", { name: /view details/ })
    .first()
    .click();
  const detail = page.getByRole("dialog", { name: "Delivery details" });
  await expect(detail).toContainText('"title": "Webhook test event"');
  await expect(detail).toContainText("present, valid");
  await page.keyboard.press("Escape");

  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "All Events" }).click();
  const events = page.getByRole("table", { name: "Events" });
  await expect(events).toContainText("Webhook test event");
  await expect(events).toContainText("Online");
  await expect(events).toContainText("upcoming");
});

async function eventColumn(page: Page): Promise<string[]> {
  const rows = page.getByRole("table", { name: "Recent deliveries" }).locator("tbody tr");
  await expect(rows.first()).toBeVisible();
  return rows.evaluateAll((elements) =>
    elements.map((row) => row.querySelectorAll("td")[3]?.textContent?.trim() ?? ""),
  );
}

test("Recent Deliveries pages past two pages without skipping or repeating while new deliveries arrive", async ({
  page,
  request,
}) => {
  await signUp(page, "Grace");
  const { endpoint, secret } = await openWebhookPage(page);
  const title = (index: number) => `Paged ${String(index).padStart(2, "0")}`;
  for (let index = 1; index <= 60; index++) {
    expect(
      (
        await sendSigned(request, endpoint, secret, { title: title(index), starts_at: "2027-01-01T10:00:00Z" })
      ).status(),
    ).toBe(200);
  }
  await page.reload();

  const seen: string[] = [];
  seen.push(...(await eventColumn(page)));
  for (let late = 1; late <= 3; late++)
    await sendSigned(request, endpoint, secret, { title: `Late ${late}`, starts_at: "2027-01-01T10:00:00Z" });
  await expect(page.getByText("New deliveries have arrived.")).toBeVisible({ timeout: 15_000 });

  await page.getByRole("link", { name: "Older" }).click();
  await expect(page).toHaveURL(/dir=older/);
  await expect(page.getByRole("table", { name: "Recent deliveries" })).toContainText(title(35));
  seen.push(...(await eventColumn(page)));
  await sendSigned(request, endpoint, secret, { title: "Late 4", starts_at: "2027-01-01T10:00:00Z" });
  await page.getByRole("link", { name: "Older" }).click();
  await expect(page.getByRole("table", { name: "Recent deliveries" })).toContainText(title(1));
  seen.push(...(await eventColumn(page)));
  await expect(page.getByRole("link", { name: "Older" })).toHaveAttribute("aria-disabled", "true");

  expect(seen).toEqual(Array.from({ length: 60 }, (_, index) => title(60 - index)));

  // And back: "Newer" from the last page shows exactly the middle page again.
  await page.getByRole("link", { name: "Newer" }).click();
  await expect(page).toHaveURL(/dir=newer/);
  await expect(page.getByRole("table", { name: "Recent deliveries" })).toContainText(seen[25]);
  expect(await eventColumn(page)).toEqual(seen.slice(25, 50));
});

test("CSV import previews good and bad rows, imports the good ones and reports the counts", async ({ page }) => {
  await signUp(page, "Grace");
  await page.goto("/knowledge/events");
  await expect(page.getByRole("heading", { name: "No events yet" })).toBeVisible();
  await page.getByRole("button", { name: "Import CSV" }).first().click();
  const dialog = page.getByRole("dialog", { name: "Import events from CSV" });
  const csv = [
    "title,starts_at,ends_at,location,price,recurring",
    "Spring Open Day,2027-05-01T10:00:00+02:00,2027-05-01T16:00:00+02:00,Main Hall,Free,",
    '"Yoga, beginners",2027-05-04T18:30:00Z,,Studio 2,€12,weekly',
    "No time,2027-05-05,,Berlin,,",
    "Bad repeat,2027-05-06T10:00:00Z,,Berlin,,hourly",
  ].join("\r\n");
  await dialog
    .getByLabel("CSV file")
    .setInputFiles({ name: "events.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
  await dialog.getByRole("button", { name: "Preview" }).click();
  await expect(dialog).toContainText("4 rows, 2 valid, 2 with errors");
  await expect(dialog.getByRole("region", { name: "Row errors" })).toContainText("line 4");
  await expect(dialog.getByRole("region", { name: "Row errors" })).toContainText("line 5");
  await dialog.getByRole("button", { name: "Import 2 valid rows" }).click();
  const result = dialog.getByRole("status", { name: "Import result" });
  await expect(result).toContainText("2Created");
  await expect(result).toContainText("0Updated");
  await expect(result).toContainText("2Failed");
  await dialog.getByRole("button", { name: "Done" }).click();

  const events = page.getByRole("table", { name: "Events" });
  await expect(events).toContainText("Spring Open Day");
  await expect(events).toContainText("Yoga, beginners");
  await expect(events).not.toContainText("Bad repeat");
});

test("an owner creates, edits, cancels and deletes an event by hand", async ({ page }) => {
  await signUp(page, "Grace");
  await page.goto("/knowledge/events");
  // A dialog gives focus back to the button that opened it, closed by Escape or by Cancel.
  const newEvent = page.getByRole("button", { name: "New event" });
  await newEvent.focus();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name: "New event" });
  await expect(dialog.getByLabel("Title")).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(newEvent).toBeFocused();
  await newEvent.click();
  await dialog.getByRole("button", { name: "Create event" }).click();
  await expect(dialog.getByText("This field is required.")).toBeVisible();
  await dialog.getByLabel("Title").fill("Board meeting");
  await dialog.getByLabel("Starts").fill("2027-03-01T09:30");
  await dialog.getByLabel("Location").fill("Room 4");
  await dialog.getByRole("button", { name: "Create event" }).click();
  await expect(dialog).toBeHidden();
  const events = page.getByRole("table", { name: "Events" });
  await expect(events).toContainText("Board meeting");

  const editButton = events.getByRole("button", { name: "Edit Board meeting" });
  await editButton.focus();
  await page.keyboard.press("Enter");
  const edit = page.getByRole("dialog", { name: "Edit event" });
  await edit.getByRole("button", { name: "Cancel" }).click();
  await expect(editButton).toBeFocused();
  await editButton.click();
  await expect(edit.getByLabel("Starts")).toHaveValue("2027-03-01T09:30");
  await shot(page, "event-edit-dialog", { fullPage: false });
  await edit.getByLabel("Title").fill("Board meeting (moved)");
  await edit.getByLabel("Location").fill("Room 5");
  await edit.getByRole("button", { name: "Save event" }).click();
  await expect(events).toContainText("Board meeting (moved)");
  await expect(events).toContainText("Room 5");

  await events.getByRole("button", { name: "Cancel Board meeting (moved)" }).click();
  await expect(page.getByRole("alertdialog")).toBeVisible();
  await shot(page, "event-cancel-confirm", { fullPage: false });
  await page.getByRole("alertdialog").getByRole("button", { name: "Cancel event" }).click();
  await expect(events).toContainText("cancelled");

  await events.getByRole("button", { name: "Delete Board meeting (moved)" }).click();
  await expect(page.getByRole("alertdialog")).toBeVisible();
  await shot(page, "event-delete-confirm", { fullPage: false });
  await page.getByRole("alertdialog").getByRole("button", { name: "Delete" }).click();
  await expect(page.getByRole("heading", { name: "No events yet" })).toBeVisible();
});

test("an owner cancels one occurrence of a series on its page and restores it", async ({ page }) => {
  await signUp(page, "Grace");
  await page.goto("/knowledge/events");
  // A weekly class that began three weeks ago: its next occurrences are all later ones, each removable.
  const began = new Date(Date.now() - 21 * 86_400_000).toISOString().slice(0, 10);
  await page.getByRole("button", { name: "New event" }).click();
  const dialog = page.getByRole("dialog", { name: "New event" });
  await dialog.getByLabel("Title").fill("Morning Yoga");
  await dialog.getByLabel("Starts").fill(`${began}T09:00`);
  await dialog.getByLabel("Location").fill("Studio 2");
  await dialog.getByLabel("Recurring").selectOption("weekly");
  await dialog.getByRole("button", { name: "Create event" }).click();
  await expect(dialog).toBeHidden();
  // All Events reads the series as what it is: upcoming, with how it repeats and its next occurrence.
  const row = page.getByRole("table", { name: "Events" }).getByRole("row").filter({ hasText: "Morning Yoga" });
  await expect(row).toContainText(/Repeats weekly · next \w{3} \d+ \w{3}, 09:00/);
  await shot(page, "all-events-series", { hideToasts: true });
  await page.getByRole("table", { name: "Events" }).getByRole("link", { name: "Morning Yoga" }).click();

  await expect(page.getByRole("heading", { name: "Morning Yoga" })).toBeVisible();
  const next = page.getByRole("list", { name: "Next occurrences" });
  await expect(next.getByRole("listitem")).toHaveCount(10);
  await expect(page.getByRole("heading", { name: "No exceptions" })).toBeVisible();

  const cancel = next
    .getByRole("listitem")
    .nth(1)
    .getByRole("button", { name: /^Cancel / });
  const occurrence = (await cancel.getAttribute("aria-label"))!.slice("Cancel ".length);
  expect(occurrence).toMatch(/^\w{3} \d+ \w+( \d{4})?, 09:00$/);
  await cancel.click();
  const confirm = page.getByRole("alertdialog", { name: "Cancel this occurrence?" });
  await expect(confirm).toContainText(occurrence);
  await confirm.getByRole("button", { name: "Cancel this occurrence" }).click();
  await expect(confirm).toBeHidden();

  const exceptions = page.getByRole("list", { name: "Exceptions" });
  await expect(exceptions).toContainText(occurrence);
  await expect(exceptions).toContainText("cancelled");
  await expect(next).not.toContainText(occurrence);
  await shot(page, "event-detail-exceptions");

  await page.getByRole("button", { name: `Restore ${occurrence}` }).click();
  await expect(page.getByRole("heading", { name: "No exceptions" })).toBeVisible();
  await expect(next).toContainText(occurrence);
});
