import { expect, test, type Page } from "@playwright/test";
import { shot, signUp } from "./support";

/*
 * Leads end to end: new leads from the dialog, the board move by keyboard, the stage select on a
 * lead's page (with its audit entry), and Settings → Pipeline (add, rename, reorder by keyboard,
 * a stage in use refused, remove). Set E2E_SCREENSHOTS_DIR to also save screenshots of each screen.
 */

test.use({ viewport: { width: 1440, height: 900 } });

async function newLead(page: Page, fields: { name: string; email?: string; company?: string; stage?: string }) {
  await page.getByRole("button", { name: "New lead" }).first().click();
  const dialog = page.getByRole("dialog", { name: "New lead" });
  await dialog.getByLabel("Name").fill(fields.name);
  if (fields.email) await dialog.getByLabel("Email").fill(fields.email);
  if (fields.company) await dialog.getByLabel("Company").fill(fields.company);
  if (fields.stage) await dialog.getByLabel("Stage").selectOption({ label: fields.stage });
  await dialog.getByRole("button", { name: "Create lead" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("table", { name: "Leads" })).toContainText(fields.name);
}

async function seedLeads(page: Page) {
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Leads" }).click();
  await expect(page.getByRole("heading", { name: "No leads yet" })).toBeVisible();
  await shot(page, "leads-empty");
  await newLead(page, { name: "Ada Lovelace", email: "ada@analytical.example", company: "Analytical Engines" });
  await newLead(page, { name: "Grace Hopper", email: "grace@navy.example", company: "US Navy", stage: "Contacted" });
  await newLead(page, { name: "Katherine Johnson", email: "katherine@nasa.example", company: "NASA", stage: "Won" });
}

test("a card moves to another stage on the board by keyboard", async ({ page }) => {
  await signUp(page, "Lin");
  await seedLeads(page);
  await expect(page.getByRole("table", { name: "Leads" }).getByRole("row")).toHaveCount(4);
  await shot(page, "leads-table");

  await page.getByRole("link", { name: "Board" }).click();
  await expect(page).toHaveURL(/view=board/);
  const qualified = page.getByRole("region", { name: "Qualified" });
  await expect(qualified).toContainText("No leads in this stage");

  // Keyboard only: focus the card's move button, open its menu, walk to "Qualified", pick it.
  await page.getByRole("button", { name: "Move Ada Lovelace" }).focus();
  await page.keyboard.press("Enter");
  const menu = page.getByRole("menu");
  await expect(menu.getByRole("menuitem", { name: "Contacted" })).toBeFocused();
  await page.keyboard.press("ArrowDown");
  await expect(menu.getByRole("menuitem", { name: "Qualified" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(qualified).toContainText("Ada Lovelace");
  await expect(page.getByRole("region", { name: "New", exact: true })).not.toContainText("Ada Lovelace");
  await expect(page.getByText("Moved “Ada Lovelace” to Qualified.")).toBeVisible();

  await page.reload();
  await expect(page.getByRole("region", { name: "Qualified" })).toContainText("Ada Lovelace");
  await shot(page, "leads-board");
});

test("the stage select on a lead's page changes the stage at once and is audited", async ({ page }) => {
  await signUp(page, "Lin");
  await seedLeads(page);
  await page.getByRole("table", { name: "Leads" }).getByRole("link", { name: "Grace Hopper" }).click();
  await expect(page.getByRole("heading", { name: "Grace Hopper" })).toBeVisible();
  const stage = page.getByLabel("Stage");
  await expect(stage).toHaveValue("contacted");
  await stage.selectOption({ label: "Won" });
  await expect(page.getByText("Moved to Won.")).toBeVisible();
  await page.reload();
  await expect(page.getByLabel("Stage")).toHaveValue("won");
  await shot(page, "lead-page");

  await page.goto("/settings/audit-log");
  const log = page.getByRole("table", { name: "Audit log" });
  await expect(log).toContainText("Moved lead to another stage");
  await expect(log).toContainText("Contacted → Won");
});

test("the pipeline is edited: add, rename, reorder by keyboard, a stage in use refused, remove", async ({ page }) => {
  await signUp(page, "Lin");
  await seedLeads(page);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Pipeline" }).click();
  const stages = page.getByRole("list", { name: "Stages" });
  await expect(stages.getByRole("listitem")).toHaveCount(5);

  await page.getByLabel("Stage name").fill("Proposal sent");
  await page.getByRole("button", { name: "Add stage" }).click();
  await expect(stages.getByRole("listitem")).toHaveCount(6);
  await expect(stages.getByRole("listitem").last()).toContainText("proposal_sent");

  await page.getByRole("button", { name: "Rename Proposal sent" }).click();
  const rename = page.getByRole("dialog", { name: "Rename “Proposal sent”" });
  await rename.getByLabel("Name").fill("Proposal");
  await rename.getByRole("button", { name: "Save" }).click();
  await expect(rename).toBeHidden();
  await expect(stages.getByRole("listitem").last()).toContainText("Proposal");

  // Up twice by keyboard: focus stays on the button, so Enter can be pressed again.
  await page.getByRole("button", { name: "Move Proposal up" }).focus();
  await page.keyboard.press("Enter");
  await expect(stages.getByRole("listitem").nth(4)).toContainText("Proposal");
  await expect(page.getByRole("button", { name: "Move Proposal up" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(stages.getByRole("listitem").nth(3)).toContainText("Proposal");
  // The order shows before it is stored: wait until it is saved, as a person would see "Saving…" go.
  await expect(stages).toHaveAttribute("aria-busy", "false");
  await page.reload();
  await expect(page.getByRole("list", { name: "Stages" }).getByRole("listitem").nth(3)).toContainText("Proposal");

  await page.getByRole("button", { name: "Remove Won" }).click();
  const refused = page.getByRole("dialog", { name: "“Won” cannot be removed" });
  await expect(refused).toContainText("1 lead is in this stage");
  await refused.getByRole("button", { name: "OK" }).click();

  await page.getByRole("button", { name: "Remove Lost" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Remove", exact: true }).click();
  await expect(stages.getByRole("listitem")).toHaveCount(5);
  await expect(stages).not.toContainText("Lost");
  await shot(page, "pipeline-settings");

  await page.goto("/leads?view=board");
  await expect(page.getByRole("region", { name: "Proposal" })).toBeVisible();
  await expect(page.getByRole("region", { name: "Lost" })).toHaveCount(0);
});
