import { expect, test } from "@playwright/test";
import { signUp } from "./support";

/* An address that names no page: “Page not found” inside the app shell, with the navigation and a way back. */

// The status is sent before the page: the dashboard's loading state has already started the streamed
// response, so Next.js answers 200 with the not-found page; what a person sees is what this checks.
test("an unknown dashboard address shows “Page not found” in the app shell", async ({ page }) => {
  await signUp(page, "Wanda");
  await page.goto("/knowledge/no-such-page");
  await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
  await expect(page.getByRole("navigation").first()).toBeVisible();
  await page.getByRole("link", { name: "Back to the dashboard" }).click();
  await expect(page).not.toHaveURL(/no-such-page/);
});

test("an unknown address sends a signed-out visitor to sign in, and unknown API paths stay JSON", async ({
  page,
  request,
}) => {
  await page.goto("/somewhere-else");
  await expect(page).toHaveURL(/\/sign-in/);
  const api = await request.get("/api/nothing-here");
  expect(api.status()).toBe(404);
  expect(api.headers()["content-type"]).toContain("application/json");
});
