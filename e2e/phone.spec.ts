import { expect, test } from "@playwright/test";
import { seededAccount } from "./seed";
import { shot } from "./support";

/*
 * Every dashboard page on a phone (390×844): nothing is wider than the screen, so no page scrolls
 * sideways and every action stays in reach. The account first gets what makes pages wide: long titles,
 * emails and URLs, a recurring series, webhook deliveries, an API key and a failing subscription (e2e/seed.ts).
 * Set E2E_SCREENSHOTS_DIR to keep a screenshot of each page (phone-*.png).
 */

const PHONE = { width: 390, height: 844 };

test("no dashboard page is wider than a 390 px phone screen", async ({ page, request }) => {
  test.setTimeout(180_000);
  const pages = await seededAccount(page, request, "Phone");
  await page.setViewportSize(PHONE);
  const tooWide: string[] = [];
  for (const path of pages) {
    await page.goto(path);
    await page.waitForLoadState("networkidle");
    const width = await page.evaluate(() => Math.max(document.documentElement.scrollWidth, document.body.scrollWidth));
    if (width > PHONE.width) {
      // The outermost elements that reach past the screen's edge, to say what to fix.
      const culprits = await page.evaluate((limit) => {
        const clipped = (element: Element) => {
          for (let node = element.parentElement; node && node !== document.body; node = node.parentElement) {
            if (getComputedStyle(node).overflowX !== "visible") return true;
          }
          return false;
        };
        const wide = [...document.querySelectorAll("body *")].filter(
          (element) => element.getBoundingClientRect().right > limit + 1 && !clipped(element),
        );
        return wide
          .filter((element) => !wide.includes(element.parentElement!))
          .slice(0, 3)
          .map(
            (element) =>
              `<${element.tagName.toLowerCase()} ` +
              `class="${(element.getAttribute("class") ?? "").slice(0, 60)}">` +
              `${(element.textContent ?? "").slice(0, 30)} ${Math.round(element.getBoundingClientRect().right)} px`,
          );
      }, PHONE.width);
      tooWide.push(`${path}: ${width} px (${culprits.join("; ")})`);
    }
    await shot(
      page,
      `phone-${(path === "/" ? "/overview" : path)
        .replace(/^\//, "")
        .replace(/[0-9a-f-]{36}|(lead|whsub)_[0-9A-Za-z]+/, "detail")
        .replaceAll("/", "-")}`,
    );
  }
  expect(tooWide).toEqual([]);
});
