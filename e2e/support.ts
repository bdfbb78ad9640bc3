import { expect, type APIRequestContext, type Page } from "@playwright/test";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";

/* What several end-to-end specs do the same way: a new owner account, records created through their dialogs,
 * and screenshots on request. */

export type Person = { name: string; email: string; password: string };

/** A person no test has signed up yet: `firstName` plus a random suffix, so the email is unique. */
export function newPerson(firstName: string): Person {
  const id = Math.random().toString(36).slice(2, 10);
  return {
    name: `${firstName} ${id}`,
    email: `${firstName.toLowerCase()}-${id}@example.test`,
    password: "a long password",
  };
}

/** Signs `person` up through the sign-up form, landing on the Overview. */
export async function signUpAs(page: Page, person: Person): Promise<void> {
  await page.goto("/sign-up");
  await page.getByLabel("Name").fill(person.name);
  await page.getByLabel("Email").fill(person.email);
  await page.getByLabel("Password").fill(person.password);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(/^https?:\/\/[^/]+\/$/);
}

/** Signs up a new owner named `firstName` plus a random suffix (unique email), landing on the Overview. */
export async function signUp(page: Page, firstName: string): Promise<void> {
  await signUpAs(page, newPerson(firstName));
}

/**
 * Creates a record the way a person does: the first button named `name` ("New event") opens the dialog of
 * that name, each labelled field is filled, `submit` is pressed, and the dialog closes.
 */
export async function createThroughDialog(
  page: Page,
  name: string,
  fields: Record<string, string>,
  submit: string,
): Promise<void> {
  await page.getByRole("button", { name }).first().click();
  const dialog = page.getByRole("dialog", { name });
  for (const [label, value] of Object.entries(fields)) await dialog.getByLabel(label).fill(value);
  await dialog.getByRole("button", { name: submit }).click();
  await expect(dialog).toBeHidden();
}

/** An event at the Old Mill through the Events page's New event dialog; `startsLocal` as the Starts field takes it. */
export async function addEvent(page: Page, title: string, startsLocal: string): Promise<void> {
  await page.goto("/knowledge/events");
  await createThroughDialog(
    page,
    "New event",
    { Title: title, Starts: startsLocal, Location: "Old Mill" },
    "Create event",
  );
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
