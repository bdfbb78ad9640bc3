import { expect, test, type Page } from "@playwright/test";
import { shot, signUp } from "./support";

/*
 * Settings → API Keys end to end: create with a preset, the one-time reveal, copy, close with
 * confirmation, the list, the public API with the key, revoke, and 401 on the next call.
 * Set E2E_SCREENSHOTS_DIR to also save screenshots of each screen.
 */

const SCOPES = ["read:leads", "write:leads", "read:conversations", "write:conversations", "webhooks"];

async function expectChecked(page: Page, checked: string[]) {
  for (const scope of SCOPES) {
    const box = page.getByRole("checkbox", { name: scope, exact: true });
    if (checked.includes(scope)) await expect(box).toBeChecked();
    else await expect(box).not.toBeChecked();
  }
}

test("create a key with a preset, copy it once, use it, revoke it", async ({ page, context, request }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.setViewportSize({ width: 1280, height: 860 });
  await signUp(page, "Ada");
  await page.goto("/settings/api-keys");
  await expect(page.getByRole("heading", { name: "No API keys yet" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Recommended scopes" })).toBeVisible();
  await shot(page, "1-empty-state");

  await page.getByRole("button", { name: "Create API key" }).click();
  const dialog = page.getByRole("dialog", { name: "Create API key" });
  await expect(dialog).toBeVisible();
  // The picker says that a webhooks key reads what its notifications carry.
  await expect(dialog.getByText("including lead and conversation data", { exact: false })).toBeVisible();

  // Submitting empty shows field errors and keeps the dialog open.
  await dialog.getByRole("button", { name: "Create", exact: true }).click();
  await expect(dialog.getByText("Enter a name for the key.")).toBeVisible();
  await expect(dialog.getByText("Choose at least one scope.")).toBeVisible();

  await dialog.getByLabel("Name").fill("Zapier lead sync");
  await expect(dialog.getByText("Enter a name for the key.")).toBeHidden();
  await dialog.getByRole("button", { name: "Custom backend, read only" }).click();
  await expectChecked(page, ["read:leads", "read:conversations"]);
  await expect(dialog.getByText("Choose at least one scope.")).toBeHidden();
  await dialog.getByRole("button", { name: "Automation tool, trigger plus lead actions" }).click();
  await expectChecked(page, ["webhooks", "read:leads", "write:leads"]);
  await dialog.getByRole("button", { name: "90 days" }).click();
  await expect(dialog.getByLabel("Expiry date")).not.toHaveValue("");
  await shot(page, "2-create-dialog", { fullPage: false });
  await dialog.getByRole("button", { name: "Create", exact: true }).click();

  const reveal = page.getByRole("dialog", { name: "Save your API key" });
  await expect(reveal).toBeVisible();
  await expect(reveal.getByText("This key will never be shown again.")).toBeVisible();
  const keyBox = reveal.getByRole("textbox", { name: "API key" });
  await expect(keyBox).toHaveAttribute("readonly", "");
  const key = await keyBox.inputValue();
  expect(key).toMatch(/^ik_live_[0-9A-Za-z]{38}$/);

  await reveal.getByRole("button", { name: "Copy" }).click();
  await expect(page.getByText("API key copied to clipboard")).toBeVisible();
  await expect(reveal.getByRole("button", { name: "Copied" })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
  await shot(page, "3-reveal-dialog", { fullPage: false });

  // Escape asks first; going back keeps the key on screen.
  await page.keyboard.press("Escape");
  const confirmClose = page.getByRole("alertdialog");
  await expect(confirmClose).toBeVisible();
  await shot(page, "4-confirm-close", { fullPage: false });
  await confirmClose.getByRole("button", { name: "Go back" }).click();
  await expect(keyBox).toHaveValue(key);
  await reveal.getByRole("button", { name: "Done" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Close dialog" }).click();
  await expect(reveal).toBeHidden();

  const table = page.getByRole("table", { name: "API keys" });
  const row = table.getByRole("row", { name: /Zapier lead sync/ });
  await expect(row).toBeVisible();
  await expect(row).toContainText(`${key.slice(0, 12)}…${key.slice(-4)}`);
  await expect(row).toContainText("never");
  await expect(row).toContainText("Active");
  for (const scope of ["read:leads", "write:leads", "webhooks"]) await expect(row).toContainText(scope);
  expect(await page.content()).not.toContain(key);
  const reloaded = await page.request.get("/settings/api-keys");
  expect(await reloaded.text()).not.toContain(key);
  await shot(page, "5-keys-table");

  const me = await request.get("/api/public/zapier/me", { headers: { Authorization: `Bearer ${key}` } });
  expect(me.status()).toBe(200);
  expect(me.headers()["cache-control"]).toBe("no-store");
  const body = await me.json();
  expect(body.key).toMatchObject({
    name: "Zapier lead sync",
    prefix: key.slice(0, 12),
    scopes: ["read:leads", "write:leads", "webhooks"],
  });
  expect(body.key.expires_at).toEqual(expect.any(String));

  await page.reload();
  await expect(row).not.toContainText("never"); // last used is now a time
  await row.getByRole("button", { name: "Revoke Zapier lead sync" }).click();
  const confirmRevoke = page.getByRole("alertdialog");
  await expect(confirmRevoke).toContainText("Revoke “Zapier lead sync”?");
  await confirmRevoke.getByRole("button", { name: "Revoke" }).click();
  await expect(page.getByText('Revoked "Zapier lead sync". It stops working immediately.')).toBeVisible();
  await expect(row).toContainText("Revoked");
  await expect(row.getByRole("button", { name: "Revoke Zapier lead sync" })).toHaveCount(0);
  await shot(page, "6-keys-table-revoked");

  const after = await request.get("/api/public/zapier/me", { headers: { Authorization: `Bearer ${key}` } });
  expect(after.status()).toBe(401);
  expect(after.headers()["www-authenticate"]).toBe('Bearer realm="api", error="invalid_token"');
  expect((await after.json()).error.code).toBe("invalid_token");

  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Audit log" }).click();
  const audit = page.getByRole("table", { name: "Audit log" });
  await expect(audit.getByRole("row").nth(1)).toContainText("Revoked API key");
  await expect(audit.getByRole("row").nth(2)).toContainText("Created API key");
  await shot(page, "7-audit-log");
});

test("the public API refuses requests without a valid key", async ({ request }) => {
  const missing = await request.get("/api/public/zapier/me");
  expect(missing.status()).toBe(401);
  expect(missing.headers()["www-authenticate"]).toBe('Bearer realm="api"');
  expect(await missing.json()).toEqual({
    ok: false,
    error: { code: "unauthorized", message: expect.any(String), details: [] },
  });
  const malformed = await request.get("/api/public/zapier/me", { headers: { Authorization: "Bearer ik_live_nope" } });
  expect(malformed.status()).toBe(401);
  expect(malformed.headers()["www-authenticate"]).toBe('Bearer realm="api", error="invalid_token"');
});
