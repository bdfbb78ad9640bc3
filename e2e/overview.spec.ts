import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { sendSigned, shot, signUp } from "./support";

/*
 * The Overview, the dashboard's home: a new account's checklist, a healthy account's cards and chart, and a
 * subscription the receiver turned away (410 Gone): the banner on every page and the card that links to
 * its delivery attempts. Set E2E_SCREENSHOTS_DIR to save overview-new-account, -healthy and -failing.
 */

test.use({ viewport: { width: 1280, height: 900 } });

/** A receiver on this machine answering every notification with `status`. */
async function receiver(status: number): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => res.writeHead(status).end());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/crm`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function addSubscription(page: Page, url: string): Promise<void> {
  await page.goto("/settings/webhooks");
  await page.getByRole("button", { name: "Add subscription" }).first().click();
  const dialog = page.getByRole("dialog", { name: "Add subscription" });
  await dialog.getByLabel("URL").fill(url);
  await dialog.getByRole("checkbox", { name: "All calendar events" }).check();
  await dialog.getByRole("button", { name: "Add subscription" }).click();
  await page.getByRole("dialog", { name: "Save the signing secret" }).getByRole("button", { name: "Done" }).click();
}

/** Sends signed upserts (and one refused request) to the account's default source. */
async function sendEvents(page: Page, request: APIRequestContext, titles: string[]): Promise<void> {
  await page.goto("/knowledge/events/webhook");
  const endpoint = await page.getByRole("textbox", { name: "Endpoint URL" }).inputValue();
  await page.getByRole("button", { name: "Reveal secret" }).click();
  await expect(page.getByRole("button", { name: "Hide secret" })).toBeVisible();
  const secret = await page.getByRole("textbox", { name: "Signing secret" }).inputValue();
  const startsAt = new Date(Date.now() + 7 * 86_400_000).toISOString().replace(/\.\d{3}Z$/, "Z");
  for (const title of titles)
    expect((await sendSigned(request, endpoint, secret, { title, starts_at: startsAt })).status()).toBe(200);
  expect((await sendSigned(request, endpoint, secret, { title: "No start" })).status()).toBe(400);
}

/**
 * A new owner whose one subscription goes to a receiver answering `answer`, after `events` were sent to the
 * account's webhook source (and one refused request); `check` runs before the receiver stops.
 */
async function withReceiverNotified(
  page: Page,
  request: APIRequestContext,
  setup: { owner: string; answer: number; events: string[] },
  check: () => Promise<void>,
): Promise<void> {
  const target = await receiver(setup.answer);
  try {
    await signUp(page, setup.owner);
    await addSubscription(page, target.url);
    await sendEvents(page, request, setup.events);
    await check();
  } finally {
    await target.close();
  }
}

const overview = (page: Page) => page.getByRole("heading", { level: 1, name: "Overview" });

test("a new account lands on the Overview with its checklist, and each step ticks itself once done", async ({
  page,
}) => {
  await signUp(page, "Olive");
  await expect(overview(page)).toBeVisible();
  const nav = page.getByRole("navigation", { name: "Main" });
  await expect(nav.getByRole("link", { name: "Overview" })).toHaveAttribute("aria-current", "page");

  const steps = page.getByRole("list", { name: "Get started" }).getByRole("listitem");
  await expect(steps).toHaveText([
    /Create an API key \(to do\)/,
    /Connect the webhook \(to do\)/,
    /Install the chat widget \(to do\)/,
    /Add a subscription \(to do\)/,
  ]);
  for (const heading of ["Webhook sources", "Subscriptions", "API keys", "Conversations"])
    await expect(page.getByRole("heading", { level: 2, name: heading })).toBeVisible();
  const chart = page.getByRole("figure", { name: "Deliveries, last 24 hours" });
  await expect(chart).toBeVisible();
  await expect(chart.getByRole("table", { name: "Deliveries, last 24 hours" }).getByRole("row")).toHaveCount(25);
  await shot(page, "overview-new-account");

  await chart.getByRole("button", { name: "7 days" }).click();
  const week = page.getByRole("figure", { name: "Deliveries, last 7 days" });
  await expect(week.getByRole("button", { name: "7 days" })).toHaveAttribute("aria-pressed", "true");

  await page.getByRole("link", { name: /Create an API key/ }).click();
  await expect(page).toHaveURL(/\/settings\/api-keys$/);
  await page.getByRole("button", { name: "Create API key" }).first().click();
  const keyDialog = page.getByRole("dialog", { name: "Create API key" });
  await keyDialog.getByLabel("Name").fill("Backend");
  await keyDialog.getByRole("button", { name: "Custom backend, read only" }).click();
  await keyDialog.getByRole("button", { name: "Create", exact: true }).click();
  await expect(page.getByRole("dialog", { name: "Save your API key" })).toBeVisible();
  await page.goto("/");
  await expect(steps.first()).toHaveText(/Create an API key \(done\)/);
  await expect(steps.nth(1)).toHaveText(/Connect the webhook \(to do\)/);
});

test("a healthy account sees its source receiving, its subscription delivering and the deliveries charted", async ({
  page,
  request,
}) => {
  await withReceiverNotified(
    page,
    request,
    { owner: "Hana", answer: 204, events: ["Open rehearsal", "Jazz brunch", "Poetry slam"] },
    async () => {
      await page.goto("/");
      const subscriptions = page.getByRole("region", { name: "Subscriptions" });
      await expect(async () => {
        await page.reload();
        await expect(subscriptions).toContainText("Success rate, 24 hours: 100% (3 of 3 attempts)", { timeout: 1000 });
      }).toPass({ timeout: 30_000 });
      const sources = page.getByRole("region", { name: "Webhook sources" });
      await expect(sources).toContainText("Receiving");
      await expect(sources).toContainText("Error rate, 24 hours: 25% (1 of 4 deliveries)");
      const table = page.getByRole("table", { name: "Deliveries, last 24 hours" });
      // This hour: 3 accepted, 1 refused inbound; 3 succeeded, 0 failed outbound.
      await expect(table.getByRole("row").last().getByRole("cell")).toHaveText(["3", "1", "3", "0"]);
      await expect(page.getByRole("region", { name: "Problems" })).toHaveCount(0);
      await shot(page, "overview-healthy");
    },
  );
});

test("a subscription turned away shows a banner on every page and a card linking to its delivery attempts", async ({
  page,
  request,
}) => {
  await withReceiverNotified(page, request, { owner: "Fenna", answer: 410, events: ["Harbour tour"] }, async () => {
    const banner = page.getByRole("region", { name: "Problems" });
    await expect(async () => {
      await page.goto("/");
      await expect(banner).toContainText("was disabled", { timeout: 1000 });
    }).toPass({ timeout: 30_000 });
    await expect(banner).toContainText("The receiver answered 410 Gone");
    const card = page
      .getByRole("region", { name: "Subscriptions" })
      .getByRole("listitem")
      .filter({ hasText: "127.0.0.1" });
    await expect(card).toContainText("because the receiver answered 410 Gone");
    await shot(page, "overview-failing");

    await page.goto("/leads");
    await expect(banner).toBeVisible();
    await page.goto("/");
    await card.getByRole("link", { name: /Delivery attempts/ }).click();
    await expect(page).toHaveURL(/\/settings\/webhooks\/whsub_[0-9A-Za-z]+#delivery-attempts$/);
    await expect(page.getByRole("heading", { name: "Delivery attempts" })).toBeVisible();
    await expect(banner).toHaveCount(0);
    await page.goto("/");
    await expect(overview(page)).toBeVisible();
    await expect(banner).toHaveCount(0);
  });
});
