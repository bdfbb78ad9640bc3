import { expect, test } from "@playwright/test";

/* What a browser sees of the security headers: a nonce-based CSP that the app's own scripts satisfy. */

test("pages carry a nonce-based Content-Security-Policy and run without a single violation", async ({ page }) => {
  const violations: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text());
  });
  const response = await page.goto("/sign-up");
  const csp = response?.headers()["content-security-policy"] ?? "";
  expect(csp).toMatch(/script-src [^;]*'nonce-[A-Za-z0-9+/=_-]+'/);
  expect(csp).toContain("'strict-dynamic'");
  expect(csp).toContain("frame-ancestors 'none'");
  expect(response?.headers()["x-frame-options"]).toBe("DENY");

  // The form works under the policy: its server action answers and the field errors appear.
  await page.getByLabel("Name").fill("Csp Check");
  await page.getByLabel("Email").fill("not-an-email");
  await page.getByLabel("Password").fill("short");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByText("Enter a valid email address.")).toBeVisible();
  expect(violations).toEqual([]);

  const next = await page.goto("/sign-in");
  expect(next?.headers()["content-security-policy"]).not.toBe(csp); // a fresh nonce per response
});

test("unknown API paths answer the JSON error body, not an HTML page", async ({ request }) => {
  for (const path of ["/api/public/nope", "/api/v1/events/webhook/src_x/extra", "/api/anything"]) {
    const response = await request.get(path);
    expect(response.status(), path).toBe(404);
    expect(response.headers()["content-type"]).toMatch(/^application\/json/);
    expect((await response.json()).error.code).toBe("not_found");
  }
});
