import { expect, type Page } from "@playwright/test";
import fs from "node:fs";
import path from "node:path";

/* What every end-to-end spec does the same way: a new owner account, and screenshots on request. */

/** Signs up a new owner named `firstName` plus a random suffix (unique email), landing on the events page. */
export async function signUp(page: Page, firstName: string): Promise<void> {
  const id = Math.random().toString(36).slice(2, 10);
  await page.goto("/sign-up");
  await page.getByLabel("Name").fill(`${firstName} ${id}`);
  await page.getByLabel("Email").fill(`${firstName.toLowerCase()}-${id}@example.test`);
  await page.getByLabel("Password").fill("a long password");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(/\/knowledge\/events$/);
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
  // Let colour transitions settle.
  await page.waitForTimeout(300);
  await page.screenshot({
    path: path.join(screenshots, `${name}.png`),
    fullPage: options.fullPage ?? true,
    style: options.hideToasts ? "[data-sonner-toaster] { display: none !important; }" : undefined,
  });
}
