import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { seededAccount } from "./seed";

/*
 * axe-core (WCAG 2.1 A and AA rules) on every dashboard page of a filled account and on the hosted chat
 * page: no serious or critical violation. Each failure names the rule, the page and the first elements.
 */

async function seriousViolations(page: Page, path: string): Promise<string[]> {
  await page.goto(path);
  await page.waitForLoadState("networkidle");
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  return results.violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map(
      (violation) =>
        `${path}: ${violation.id} (${violation.impact}) at ${violation.nodes
          .slice(0, 3)
          .map((node) => node.target.join(" "))
          .join(", ")}`,
    );
}

test("no serious or critical accessibility violation on any dashboard page or the chat page", async ({
  page,
  request,
}) => {
  test.setTimeout(240_000);
  const pages = await seededAccount(page, request, "Axe");
  const found: string[] = [];
  for (const path of pages) found.push(...(await seriousViolations(page, path)));

  await page.goto("/settings/chat-widget");
  const snippet = await page.getByRole("textbox", { name: "Embed snippet" }).inputValue();
  const widgetId = /data-widget="(wid_[0-9A-Za-z]+)"/.exec(snippet)?.[1];
  expect(widgetId).toBeTruthy();
  found.push(...(await seriousViolations(page, `/chat/${widgetId}`)));
  expect(found).toEqual([]);
});
