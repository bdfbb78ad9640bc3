import { expect, type APIRequestContext, type Page } from "@playwright/test";
import { sendSigned, signUp } from "./support";

/*
 * An account with what makes pages long, wide and varied: long titles, emails and URLs, a recurring
 * series, a cancelled event, webhook deliveries, a lead, an API key and a subscription nobody receives.
 * Answers the paths of every dashboard page, detail pages included.
 */

async function seedEvents(page: Page, request: APIRequestContext) {
  await page.goto("/knowledge/events/webhook");
  const endpoint = await page.getByRole("textbox", { name: "Endpoint URL" }).inputValue();
  await page.getByRole("button", { name: "Reveal secret" }).click();
  await expect(page.getByRole("button", { name: "Hide secret" })).toBeVisible();
  const secret = await page.getByRole("textbox", { name: "Signing secret" }).inputValue();
  const soon = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().replace(/\.\d{3}Z$/, "Z");
  const events: Array<Record<string, string>> = [
    { title: "Morning Yoga", starts_at: soon(-30), location: "Studio 2", recurring: "weekly" },
    {
      title: "An evening of Baroque chamber music with the Kammerorchester Unterwasserbach",
      starts_at: soon(3),
      location: "Großer Konzertsaal der Musikhochschule",
    },
    {
      title: "Workshop",
      starts_at: soon(5),
      url: "https://example.com/events/a-very-long-path/that-goes-on/and-on/for-ever-and-ever?utm_source=newsletter",
    },
    { title: "Quiz night", starts_at: soon(7), price: "Free for members, 5 EUR otherwise" },
  ];
  for (const event of events) expect((await sendSigned(request, endpoint, secret, event)).status()).toBe(200);
  expect(
    (
      await sendSigned(request, endpoint, secret, { title: "Quiz night", starts_at: events[3].starts_at }, "cancel")
    ).status(),
  ).toBe(200);
}

async function seedLead(page: Page) {
  await page.goto("/leads");
  await page.getByRole("button", { name: "New lead" }).first().click();
  const dialog = page.getByRole("dialog", { name: "New lead" });
  await dialog.getByLabel("Name").fill("Maximilian Alexander von Hohenzollern-Sigmaringen");
  await dialog.getByLabel("Email").fill("maximilian.alexander.von.hohenzollern-sigmaringen@example-longdomain.test");
  await dialog.getByRole("button", { name: "Create lead" }).click();
  await expect(dialog).toBeHidden();
}

async function seedKeyAndSubscription(page: Page): Promise<string> {
  await page.goto("/settings/api-keys");
  await page.getByRole("button", { name: "Create API key" }).click();
  const keyDialog = page.getByRole("dialog", { name: "Create API key" });
  await keyDialog.getByLabel("Name").fill("Zapier lead sync for the marketing team");
  await keyDialog.getByRole("button", { name: "Custom backend, read only" }).click();
  await keyDialog.getByRole("button", { name: "Create", exact: true }).click();
  await page.keyboard.press("Escape");

  await page.goto("/settings/webhooks");
  await page.getByRole("button", { name: "Add subscription" }).click();
  const dialog = page.getByRole("dialog", { name: "Add subscription" });
  // Nothing listens there: its deliveries fail and are retried, so its page shows failed attempts.
  await dialog.getByLabel("URL").fill("http://127.0.0.1:9/hooks/crm/a-long-path-for-the-receiving-end");
  await dialog.getByRole("checkbox", { name: "All calendar events" }).check();
  await dialog.getByRole("button", { name: "Add subscription" }).click();
  await page.getByRole("dialog", { name: "Save the signing secret" }).getByRole("button", { name: "Done" }).click();
  await page.goto("/settings/webhooks");
  return (
    (await page
      .getByRole("link", { name: /127\.0\.0\.1/ })
      .first()
      .getAttribute("href")) ?? "/settings/webhooks"
  );
}

/** Signs up `firstName`, fills the account, and answers every dashboard page's path. */
export async function seededAccount(page: Page, request: APIRequestContext, firstName: string): Promise<string[]> {
  await signUp(page, firstName);
  await seedEvents(page, request);
  await seedLead(page);
  const subscription = await seedKeyAndSubscription(page);
  await page.goto("/leads");
  const lead =
    (await page
      .getByRole("link", { name: /Maximilian/ })
      .first()
      .getAttribute("href")) ?? "/leads";
  await page.goto("/knowledge/events");
  const series =
    (await page.getByRole("link", { name: "Morning Yoga" }).first().getAttribute("href")) ?? "/knowledge/events";
  return [
    "/",
    "/knowledge/events",
    series,
    "/knowledge/events/webhook",
    "/knowledge/events/calendar-feeds",
    "/leads",
    lead,
    "/conversations",
    "/settings/account",
    "/settings/api-keys",
    "/settings/webhooks",
    subscription,
    "/settings/chat-widget",
    "/settings/pipeline",
    "/settings/plan",
    "/settings/audit-log",
  ];
}
