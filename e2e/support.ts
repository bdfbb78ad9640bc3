import { expect, type APIRequestContext, type Page } from "@playwright/test";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";

/* What every end-to-end spec does the same way: a new owner account, and screenshots on request. */

/** Signs up a new owner named `firstName` plus a random suffix (unique email), landing on the Overview. */
export async function signUp(page: Page, firstName: string): Promise<void> {
  const id = Math.random().toString(36).slice(2, 10);
  await page.goto("/sign-up");
  await page.getByLabel("Name").fill(`${firstName} ${id}`);
  await page.getByLabel("Email").fill(`${firstName.toLowerCase()}-${id}@example.test`);
  await page.getByLabel("Password").fill("a long password");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(/^https?:\/\/[^/]+\/$/);
}

const screenshots = process.env.E2E_SCREENSHOTS_DIR;

/**
 * With E2E_SCREENSHOTS_DIR set, saves a screenshot of the page there (docs/screenshots are taken this way).
 * Dialogs are fixed to the viewport, so those are taken with fullPage false; toasts come and go with
 * timing, so `hideToasts` leaves them out.
 */
export async function shot(
  page: Page,
  name: string,
  options: { fullPage?: boolean; hideToasts?: boolean } = {},
): Promise<void> {
  if (!screenshots) return;
  fs.mkdirSync(screenshots, { recursive: true });
  // No hover state (a chart's tooltip, a row's highlight) where the last click left the pointer.
  await page.mouse.move(0, 0);
  // Let colour transitions settle.
  await page.waitForTimeout(300);
  await page.screenshot({
    path: path.join(screenshots, `${name}.png`),
    fullPage: options.fullPage ?? true,
    style: options.hideToasts ? "[data-sonner-toaster] { display: none !important; }" : undefined,
  });
}

/** A request to the Events Webhook signed with the source's secret, as a sending system signs it (docs/webhook.md). */
export function sendSigned(
  request: APIRequestContext,
  endpoint: string,
  secret: string,
  event: Record<string, string>,
  action = "upsert",
) {
  const body = JSON.stringify({ action, event });
  const timestamp = String(Math.floor(Date.now() / 1000));
  const signature = "sha256=" + crypto.createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex");
  return request.post(endpoint, {
    headers: { "Content-Type": "application/json", "X-Service-Timestamp": timestamp, "X-Service-Signature": signature },
    data: body,
  });
}
