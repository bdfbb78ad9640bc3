import { expect, test } from "@playwright/test";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { sendSigned, shot, signUp } from "./support";

/*
 * Settings → Webhooks end to end: the empty state, a private URL refused on its field, a subscription to
 * a receiver on this machine (the e2e server allows loopback targets), the one-time secret, the detail
 * page with the secret revealed again, a test notification verified with the standardwebhooks library,
 * a failing receiver, "Replay since…", disable and re-enable, delete.
 * Set E2E_SCREENSHOTS_DIR to also save screenshots of each screen.
 */

test.use({ viewport: { width: 1280, height: 860 } });

type Received = { headers: http.IncomingHttpHeaders; body: string };

/** A receiver on 127.0.0.1 that records what it gets and answers with `status`. */
async function startReceiver() {
  const received: Received[] = [];
  const state = { status: 200 };
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString("utf8") });
      response
        .writeHead(state.status, { "content-type": "text/plain" })
        .end(state.status === 200 ? "ok" : "receiver is down");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/crm`,
    received,
    state,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

test("add a subscription to a local receiver, see its secret once, disable, re-enable and delete it", async ({
  page,
  context,
}) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const receiver = await startReceiver();
  try {
    await signUp(page, "Ada");
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Webhooks" }).click();
    await expect(page).toHaveURL(/\/settings\/webhooks$/);
    await expect(page.getByRole("heading", { name: "No webhook subscriptions yet" })).toBeVisible();
    await shot(page, "webhooks-empty", { hideToasts: true });

    await page.getByRole("button", { name: "Add subscription" }).click();
    const dialog = page.getByRole("dialog", { name: "Add subscription" });
    await expect(dialog).toBeVisible();

    // A private address and no event type: both fields say what is wrong; nothing is created.
    await dialog.getByLabel("URL").fill("http://10.0.0.1/hooks");
    await dialog.getByRole("button", { name: "Add subscription" }).click();
    await expect(dialog.getByText("This address is on a private network")).toBeVisible();
    await expect(dialog.getByText("Choose at least one event type, or All events.")).toBeVisible();

    await dialog.getByRole("checkbox", { name: "lead.created" }).check();
    await dialog.getByRole("checkbox", { name: "lead.stage_changed" }).check();
    await dialog.getByRole("checkbox", { name: "All calendar events" }).check();
    await expect(dialog.getByRole("checkbox", { name: "event.updated" })).toBeChecked();
    await expect(dialog.getByRole("checkbox", { name: "event.updated" })).toBeDisabled();
    await dialog.getByLabel("Description").fill("CRM sync");
    await shot(page, "webhooks-add-dialog", { fullPage: false, hideToasts: true });

    await dialog.getByLabel("URL").fill(receiver.url);
    await expect(dialog.getByText("This address is on a private network")).toBeHidden();
    await dialog.getByRole("button", { name: "Add subscription" }).click();

    const reveal = page.getByRole("dialog", { name: "Save the signing secret" });
    await expect(reveal).toBeVisible();
    const secretBox = reveal.getByRole("textbox", { name: "Signing secret" });
    await expect(secretBox).toHaveAttribute("readonly", "");
    const secret = await secretBox.inputValue();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    await reveal.getByRole("button", { name: "Copy" }).click();
    await expect(page.getByText("Signing secret copied to clipboard")).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    await shot(page, "webhooks-secret-reveal", { fullPage: false, hideToasts: true });
    await reveal.getByRole("button", { name: "Done" }).click();
    await expect(reveal).toBeHidden();

    const table = page.getByRole("table", { name: "Webhook subscriptions" });
    const row = table.getByRole("row", { name: /hooks\/crm/ });
    await expect(row).toBeVisible();
    for (const text of [
      receiver.url,
      "CRM sync",
      "lead.created",
      "lead.stage_changed",
      "All calendar events",
      "Active",
      "None yet",
    ])
      await expect(row).toContainText(text);
    expect(await page.content()).not.toContain(secret);
    await shot(page, "webhooks-table", { hideToasts: true });

    await row.getByRole("link", { name: receiver.url }).click();
    await expect(page.getByRole("heading", { level: 1, name: "CRM sync" })).toBeVisible();
    await expect(page.getByText("Waiting for the first notification")).toBeVisible();
    const secretField = page.getByRole("textbox", { name: "Signing secret" });
    await expect(secretField).not.toHaveValue(secret);
    await page.getByRole("button", { name: "Reveal secret" }).click();
    await expect(secretField).toHaveValue(secret);

    // A test notification reaches the receiver, signed so that a Standard Webhooks library accepts it.
    const attempts = page.getByRole("table", { name: "Delivery attempts" });
    await expect(attempts).toContainText("No deliveries in the last 30 days.");
    await page.getByRole("button", { name: "Send test notification" }).click();
    await expect.poll(() => receiver.received.length, { timeout: 15_000 }).toBe(1);
    const [first] = receiver.received;
    const verified = new Webhook(secret).verify(first.body, first.headers as Record<string, string>) as {
      type: string;
    };
    expect(verified.type).toBe("test");
    await expect(attempts.getByRole("row").nth(1)).toContainText("Delivered", { timeout: 15_000 });
    await expect(attempts.getByRole("row").nth(1)).toContainText("200");
    await expect(page.getByRole("heading", { name: "Delivering", exact: true })).toBeVisible();
    await shot(page, "webhooks-detail-healthy", { hideToasts: true });

    await attempts
      .getByRole("button", { name: /view details/ })
      .first()
      .click();
    const attemptDialog = page.getByRole("dialog", { name: "Delivery attempt" });
    await expect(attemptDialog).toContainText(String(first.headers["webhook-id"]));
    await expect(attemptDialog.getByRole("region", { name: /^Response/ }).locator("pre")).toHaveText("ok");
    // What was sent, beside what came back: the payload and the headers, the signature masked.
    await expect(attemptDialog.getByRole("region", { name: /^Payload sent/ })).toContainText(
      String(first.headers["webhook-id"]),
    );
    await expect(attemptDialog).toContainText("v1,•••••••• (masked)");
    await page.keyboard.press("Escape");
    await expect(attemptDialog).toBeHidden();

    // The receiver fails: the page says so in words.
    receiver.state.status = 500;
    await page.getByRole("button", { name: "Send test notification" }).click();
    await expect.poll(() => receiver.received.length, { timeout: 15_000 }).toBe(2);
    await expect(page.getByRole("heading", { name: "Deliveries are failing" })).toBeVisible({ timeout: 15_000 });
    await expect(page.getByText(/^The receiver answered 500 Internal Server Error on the last/)).toBeVisible();
    await expect(attempts.getByRole("row").nth(1)).toContainText("Will retry");
    await shot(page, "webhooks-detail-failing", { hideToasts: true });

    // Back up, the receiver gets both notifications again with their own webhook-id.
    receiver.state.status = 200;
    await page.getByRole("button", { name: "Replay since…" }).click();
    const replay = page.getByRole("dialog", { name: "Replay notifications" });
    await expect(replay.getByLabel("Since")).not.toHaveValue("");
    await replay.getByRole("button", { name: "Replay" }).click();
    await expect(page.getByText("2 notifications queued again.")).toBeVisible();
    const ids = new Set(receiver.received.map((request) => request.headers["webhook-id"]));
    await expect
      .poll(() => receiver.received.filter((request) => request.headers["webhook-id"] === [...ids][1]).length, {
        timeout: 15_000,
      })
      .toBeGreaterThanOrEqual(2);
    await expect
      .poll(
        async () => {
          await page.reload();
          return page.getByRole("heading", { name: "Delivering", exact: true }).isVisible();
        },
        { timeout: 20_000 },
      )
      .toBe(true);

    // Disabling asks first, and says that what happens meanwhile is not delivered later.
    await page.getByRole("button", { name: "Disable" }).click();
    const confirmDisable = page.getByRole("alertdialog", { name: "Disable this subscription?" });
    await expect(confirmDisable).toContainText("changes made in the meantime are not delivered later");
    await confirmDisable.getByRole("button", { name: "Disable" }).click();
    await expect(page.getByText("Subscription disabled: it receives nothing until you enable it.")).toBeVisible();
    await expect(page.getByRole("heading", { name: "This subscription is disabled" })).toBeVisible();
    await expect(page.getByText(/^Disabled by Ada /)).toBeVisible();
    await shot(page, "webhooks-detail-disabled", { hideToasts: true });

    await page.getByRole("button", { name: "Enable" }).click();
    await expect(page.getByText("Subscription enabled: new notifications are delivered again.")).toBeVisible();
    await expect(page.getByRole("heading", { name: "This subscription is disabled" })).toBeHidden();
    await expect(page.getByRole("button", { name: "Disable" })).toBeVisible();

    await page.getByRole("button", { name: "Delete" }).click();
    const confirm = page.getByRole("alertdialog");
    await expect(confirm).toContainText("Delete this subscription?");
    await confirm.getByRole("button", { name: "Delete" }).click();
    await expect(page).toHaveURL(/\/settings\/webhooks$/);
    await expect(page.getByRole("heading", { name: "No webhook subscriptions yet" })).toBeVisible();
  } finally {
    await receiver.close();
  }
});

test("search and a date range narrow Recent Deliveries and a subscription's Delivery attempts", async ({
  page,
  request,
}) => {
  const receiver = await startReceiver();
  try {
    await signUp(page, "Lin");
    await page.goto("/settings/webhooks");
    await page.getByRole("button", { name: "Add subscription" }).click();
    const dialog = page.getByRole("dialog", { name: "Add subscription" });
    await dialog.getByLabel("URL").fill(receiver.url);
    await dialog.getByRole("checkbox", { name: "All calendar events" }).check();
    await dialog.getByRole("button", { name: "Add subscription" }).click();
    await page.getByRole("dialog", { name: "Save the signing secret" }).getByRole("button", { name: "Done" }).click();
    await page.getByRole("link", { name: receiver.url }).click();
    await expect(page.getByRole("heading", { name: "Delivery attempts" })).toBeVisible();
    const subscriptionUrl = page.url();

    // Two accepted events and one request signed with the wrong secret, into the Events Webhook.
    await page.goto("/knowledge/events/webhook");
    const endpoint = await page.getByRole("textbox", { name: "Endpoint URL" }).inputValue();
    const hide = page.getByRole("button", { name: "Hide secret" });
    if (!(await hide.isVisible())) await page.getByRole("button", { name: "Reveal secret" }).click();
    await expect(hide).toBeVisible();
    const secret = await page.getByRole("textbox", { name: "Signing secret" }).inputValue();
    for (const title of ["Harbour walk", "Jazz night"])
      expect((await sendSigned(request, endpoint, secret, { title, starts_at: "2027-01-01T10:00:00Z" })).status()).toBe(
        200,
      );
    const refused = await sendSigned(request, endpoint, "whsec_not-the-secret", { title: "Forged" });
    expect(refused.status()).toBe(401);
    await page.reload();

    const deliveries = page.getByRole("table", { name: "Recent deliveries" });
    const deliveryRows = deliveries.locator("tbody tr");
    await expect(deliveryRows).toHaveCount(3);
    const search = page.getByRole("searchbox", { name: "Search deliveries" });
    await search.fill("JAZZ");
    await expect(page).toHaveURL(/[?&]q=JAZZ/);
    await expect(deliveryRows).toHaveCount(1);
    await expect(deliveries).toContainText("Jazz night");
    await shot(page, "webhook-deliveries-search", { hideToasts: true });
    await search.fill("401");
    await expect(deliveries).toContainText("invalid_signature");
    await expect(deliveryRows).toHaveCount(1);
    await search.fill("");
    await expect(deliveryRows).toHaveCount(3);

    const range = page.getByRole("group", { name: "Date range" });
    await range.getByLabel("To").fill("2020-01-01");
    await expect(page).toHaveURL(/[?&]to=2020-01-01/);
    await expect(deliveries).toContainText("No deliveries match these filters");
    await range.getByLabel("From").fill("2020-01-02");
    await expect(page.getByRole("alert").filter({ hasText: "“To” is before “From”" })).toBeVisible();
    await expect(deliveryRows).toHaveCount(3);
    await shot(page, "webhook-deliveries-range-problem", { hideToasts: true });
    // On a phone the search and both dates fit the screen.
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(range.getByLabel("From")).toBeVisible();
    const toBox = (await range.getByLabel("To").boundingBox())!;
    expect(toBox.x + toBox.width).toBeLessThanOrEqual(390);
    expect(toBox.width).toBeGreaterThanOrEqual(140);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await shot(page, "webhook-deliveries-range-problem-phone", { hideToasts: true });
    await page.setViewportSize({ width: 1280, height: 860 });

    // The two new events became event.created notifications; a test notification adds a "test" one.
    await page.goto(subscriptionUrl);
    await page.getByRole("button", { name: "Send test notification" }).click();
    const attempts = page.getByRole("table", { name: "Delivery attempts" });
    const attemptRows = attempts.locator("tbody tr");
    await expect
      .poll(
        async () => {
          await page.reload();
          return attempts.getByText("Delivered").count();
        },
        { timeout: 20_000 },
      )
      .toBe(3);
    const attemptSearch = page.getByRole("searchbox", { name: "Search delivery attempts" });
    await attemptSearch.fill("event.created");
    await expect(page).toHaveURL(/[?&]q=event.created/);
    await expect(attemptRows).toHaveCount(2);
    await attemptSearch.fill("test");
    await expect(attemptRows).toHaveCount(1);
    await shot(page, "webhooks-attempts-search", { hideToasts: true });
    await attemptSearch.fill("");
    await expect(attemptRows).toHaveCount(3);
    await page.getByRole("group", { name: "Date range" }).getByLabel("To").fill("2020-01-01");
    await expect(attempts).toContainText("No attempts match this search and date range");
  } finally {
    await receiver.close();
  }
});
