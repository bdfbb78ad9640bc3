import { expect, test } from "@playwright/test";
import { newPerson, signUpAs } from "./support";

test("a visitor signs up, lands in the dashboard, signs out and signs back in", async ({ page }) => {
  const person = newPerson("Ada");
  await signUpAs(page, person);
  await expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();
  const nav = page.getByRole("navigation", { name: "Main" });
  await expect(nav.getByRole("link").first()).toHaveAccessibleName("Overview");
  for (const link of [
    "Overview",
    "All Events",
    "Webhook",
    "Leads",
    "Account",
    "API Keys",
    "Webhooks",
    "Pipeline",
    "Audit log",
    "Plan",
  ]) {
    await expect(nav.getByRole("link", { name: link, exact: true })).toBeVisible();
  }
  await expect(page.getByText(person.email)).toBeVisible();

  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/sign-in$/);

  await page.goto("/settings/plan");
  await expect(page).toHaveURL(/\/sign-in\?callbackUrl=%2Fsettings%2Fplan$/);
  await page.getByLabel("Email").fill(person.email);
  await page.getByLabel("Password").fill(person.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/settings\/plan$/);
  await expect(page.getByRole("heading", { name: "Plan" })).toBeVisible();
});

test("sign-up shows field errors for bad input and keeps what was typed", async ({ page }) => {
  await page.goto("/sign-up");
  await page.getByLabel("Name").fill("Grace");
  await page.getByLabel("Email").fill("not-an-email");
  await page.getByLabel("Password").fill("short");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByText("Enter a valid email address.")).toBeVisible();
  await expect(page.getByText("Use at least 10 characters.")).toBeVisible();
  await expect(page.getByLabel("Name")).toHaveValue("Grace");

  // A refused email keeps a good password: the person fixes one field, not two.
  await page.getByLabel("Password").fill("a long password");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByText("Enter a valid email address.")).toBeVisible();
  await expect(page.getByLabel("Password")).toHaveValue("a long password");
});

test("a wrong password gets one generic message", async ({ page }) => {
  await page.goto("/sign-in");
  await page.getByLabel("Email").fill("nobody@example.test");
  await page.getByLabel("Password").fill("wrong password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "incorrect" })).toHaveText(
    "The email or password is incorrect.",
  );
});

test("a cookie copied before sign-out stops working; signing up again with that email is refused neutrally", async ({
  page,
  browser,
}) => {
  const person = newPerson("Ada");
  await signUpAs(page, person);
  const copied = await page.context().cookies();

  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/sign-in$/);

  const elsewhere = await browser.newContext();
  await elsewhere.addCookies(copied);
  const thief = await elsewhere.newPage();
  await thief.goto("/settings/plan");
  await expect(thief).toHaveURL(/\/sign-in\?callbackUrl=%2Fsettings%2Fplan$/);
  await elsewhere.close();

  await page.goto("/sign-up");
  await page.getByLabel("Name").fill("Someone else");
  await page.getByLabel("Email").fill(person.email);
  await page.getByLabel("Password").fill("another long password");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "couldn't create" })).toHaveText(
    "We couldn't create an account with these details. If you already have an account, sign in.",
  );
  await expect(page.getByLabel("Email")).toHaveValue(person.email);
});
