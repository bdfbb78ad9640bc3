import { expect, test, type Page } from "@playwright/test";
import { addEvent, shot, signUp } from "./support";

/*
 * The chat a visitor can trust, as the owner sets it up and a visitor meets it: the owner gives the chat
 * the business name, a logo, a brand colour and the usual reply time in Settings → Chat widget, the
 * preview showing each as it is typed; the visitor's chat shows the same, answers a question with more
 * than three events with "…and N more", shows the rest on "show more", and after "Talk to a person"
 * says when the team usually answers. The owner finds the conversation by searching the inbox and
 * replies without scrolling the page. Set E2E_SCREENSHOTS_DIR to save screenshots of each screen.
 */

const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };
const LOGO_URL = "https://cdn.harbourhall.example/logo.svg";
const LOGO =
  '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64">' +
  '<rect width="64" height="64" rx="14" fill="#0f766e"/><path d="M14 44 L32 16 L50 44 Z" fill="#fbbf24"/>' +
  '<rect x="12" y="44" width="40" height="6" rx="3" fill="#ffffff"/></svg>';
const REPLY_TIME = "We usually answer within an hour, Monday to Friday.";

/** The closed test network has no cdn.harbourhall.example: the browser gets the logo from here. */
async function serveLogo(page: Page) {
  await page.route(LOGO_URL, (route) => route.fulfill({ contentType: "image/svg+xml", body: LOGO }));
}

const backgroundOf = (page: Page, selector: string) =>
  page
    .locator(selector)
    .first()
    .evaluate((element) => getComputedStyle(element).backgroundColor);

test("a branded chat: the visitor pages through answers and learns when the team answers", async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  await page.setViewportSize(DESKTOP);
  await serveLogo(page);
  await signUp(page, "Rosa");
  const nextYear = new Date().getUTCFullYear() + 1;
  for (const [index, day] of ["10", "12", "14", "17"].entries())
    await addEvent(page, `Harbour jazz night ${index + 1}`, `${nextYear}-03-${day}T20:00`);

  // Settings: a colour that is not one is refused in words; the preview follows what is typed.
  await page.goto("/settings/chat-widget");
  const snippet = await page.getByRole("textbox", { name: "Embed snippet" }).inputValue();
  const widgetId = /data-widget="(wid_[0-9A-Za-z]+)"/.exec(snippet)?.[1];
  expect(widgetId).toBeTruthy();
  await page.getByLabel("Business name").fill("Harbour Hall");
  await page.getByLabel("Logo address").fill("http://cdn.harbourhall.example/logo.svg");
  await page.getByLabel("Brand colour", { exact: true }).fill("teal");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("The logo's address must start with https://.")).toBeVisible();
  await expect(page.getByText("Enter the colour as a hex code such as #4F46E5, or leave it empty.")).toBeVisible();

  await page.getByLabel("Logo address").fill(LOGO_URL);
  await page.getByLabel("Brand colour", { exact: true }).fill("#0F766E");
  await page.getByLabel("When your team usually answers").fill(REPLY_TIME);
  await expect(page.getByText(/Text on it is white \(contrast 5\.\d:1\)/)).toBeVisible();
  const preview = page.locator("figure");
  await expect(preview.getByText("Harbour Hall")).toBeVisible();
  await expect(preview.getByText(REPLY_TIME)).toBeVisible();
  await expect(preview.locator("img")).toHaveAttribute("src", LOGO_URL);
  expect(await backgroundOf(page, "figure header")).toBe("rgb(15, 118, 110)");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Settings saved.")).toBeVisible();
  await shot(page, "chat-widget-settings-branding", { hideToasts: true });
  await page.setViewportSize(PHONE);
  await shot(page, "phone-chat-widget-settings-branding", { hideToasts: true });
  await page.setViewportSize(DESKTOP);

  // The visitor, on a phone: the header the preview showed.
  const visitorContext = await browser.newContext({ viewport: PHONE });
  const visitor = await visitorContext.newPage();
  await serveLogo(visitor);
  await visitor.goto(`/chat/${widgetId}`);
  await expect(visitor.getByRole("heading", { level: 1, name: "Harbour Hall" })).toBeVisible();
  const header = visitor.locator("header");
  await expect(header).toContainText("Ask about upcoming events");
  expect(await backgroundOf(visitor, "header")).toBe("rgb(15, 118, 110)");
  expect(await header.evaluate((element) => getComputedStyle(element).color)).toBe("rgb(255, 255, 255)");
  await expect(header.locator("img")).toHaveJSProperty("naturalWidth", 64);

  // Four matches: three and "…and 1 more", then the fourth on "show more".
  const log = visitor.getByRole("log", { name: "Conversation" });
  const say = async (text: string) => {
    await visitor.getByRole("textbox", { name: "Message" }).fill(text);
    await visitor.getByRole("button", { name: "Send" }).click();
  };
  await say("any jazz?");
  await expect(log).toContainText("…and 1 more. Say “show more” to see it.");
  await expect(log).not.toContainText("Harbour jazz night 4");
  await say("show more");
  await expect(log).toContainText("Here is one more:");
  await expect(log).toContainText("Harbour jazz night 4");
  await shot(visitor, "chat-branded-more-phone", { fullPage: false });
  await visitor.getByRole("button", { name: "Talk to a person" }).click();
  await expect(log).toContainText(REPLY_TIME);
  await shot(visitor, "chat-branded-handoff-phone", { fullPage: false });
  // The same chat on a desktop screen.
  await visitor.setViewportSize(DESKTOP);
  await shot(visitor, "chat-branded-desktop", { fullPage: false });
  for (const line of ["Are tickets still available?", "For two people", "Near the stage if possible"]) await say(line);
  await expect(log).toContainText("Near the stage if possible");

  // The inbox: the visitor found by what they wrote, nobody for a search that matches nothing.
  await page.goto("/conversations");
  const search = page.getByRole("searchbox", { name: "Search conversations" });
  await search.fill("nobody wrote this");
  await search.press("Enter");
  const nothing = "No conversations under “Needs a person” match “nobody wrote this”";
  await expect(page.getByText(nothing)).toBeVisible();
  await search.fill("tickets still available");
  await search.press("Enter");
  const panel = page.getByRole("tabpanel");
  await expect(panel.getByRole("link", { name: /Visitor/ })).toHaveCount(1);
  await shot(page, "inbox-search");
  await panel.getByRole("link", { name: /Visitor/ }).click();
  await expect(page.getByRole("log", { name: "Messages" })).toContainText("Near the stage if possible");
  // On a 1440×900 screen the reply box is in view without scrolling the page.
  await expect(page.getByRole("textbox", { name: "Reply" })).toBeInViewport();
  await expect(page.getByRole("button", { name: "Send reply" })).toBeInViewport();
  await shot(page, "inbox-conversation-reply-box", { fullPage: false });
  await visitorContext.close();
});
