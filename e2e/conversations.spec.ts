import { expect, test } from "@playwright/test";
import { addEvent, createThroughDialog, shot, signUp } from "./support";

/*
 * The whole loop, as two people live it: an owner puts an event in the knowledge and takes the widget's
 * embed snippet; a visitor on the hosted chat page asks the assistant, which answers from that event, and
 * then asks for a person; the owner sees the conversation under "Needs a person", replies, and the
 * visitor reads the reply without reloading; the visitor answers, the agent sees it; the agent closes the
 * conversation and the visitor is told. On the way the visitor leaves the email of a lead the team already
 * has: the inbox shows it as not verified, and the agent links the two with "Link to lead". Set
 * E2E_SCREENSHOTS_DIR to also save screenshots of each screen.
 */

test("a visitor asks the assistant, hands off to a person, and the agent answers and closes from the inbox", async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await signUp(page, "Rosa");
  const nextYear = new Date().getUTCFullYear() + 1;
  await addEvent(page, "Harbour jazz night", `${nextYear}-03-14T20:00`);
  await page.goto("/leads");
  await createThroughDialog(page, "New lead", { Name: "Ada Harbour", Email: "ada@harbour.example" }, "Create lead");

  await page.goto("/settings/chat-widget");
  const snippet = await page.getByRole("textbox", { name: "Embed snippet" }).inputValue();
  const widgetId = /data-widget="(wid_[0-9A-Za-z]+)"/.exec(snippet)?.[1];
  expect(widgetId).toBeTruthy();
  await shot(page, "chat-widget-settings");

  // The visitor: another browser context, no session, a phone-sized screen.
  const visitorContext = await browser.newContext({ viewport: { width: 390, height: 780 } });
  const visitor = await visitorContext.newPage();
  await visitor.goto(`/chat/${widgetId}`);
  const log = visitor.getByRole("log", { name: "Conversation" });
  await visitor.getByRole("textbox", { name: "Message" }).fill("any jazz coming up?");
  await visitor.getByRole("button", { name: "Send" }).click();
  await expect(log).toContainText("Harbour jazz night");
  await shot(visitor, "chat-assistant-answer");
  await visitor.getByRole("button", { name: "Talk to a person" }).click();
  await expect(log).toContainText("Someone from the team will answer");

  // The agent finds it under "Needs a person".
  await page.goto("/conversations");
  await page.getByRole("tab", { name: "Needs a person" }).click();
  await expect(page.getByRole("tabpanel")).toContainText("any jazz coming up?");
  await shot(page, "inbox-needs-a-person");
  await page.setViewportSize({ width: 390, height: 780 });
  await shot(page, "inbox-phone");
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.getByRole("tabpanel").getByRole("link", { name: "Visitor" }).first().click();
  await expect(page.getByRole("log", { name: "Messages" })).toContainText("any jazz coming up?");
  await shot(page, "inbox-conversation");
  await page.getByRole("textbox", { name: "Reply" }).fill("Hi! Yes, tickets are still available. <b>Not bold</b>");
  await page.getByRole("button", { name: "Send reply" }).click();

  // The visitor reads the reply without reloading; markup stays text.
  await expect(log).toContainText("tickets are still available. <b>Not bold</b>", { timeout: 5_000 });
  await visitor.getByRole("textbox", { name: "Message" }).fill("Great, thank you!");
  await visitor.getByRole("button", { name: "Send" }).click();
  await expect(page.getByRole("log", { name: "Messages" })).toContainText("Great, thank you!", { timeout: 5_000 });
  await shot(visitor, "chat-handoff");

  // The visitor leaves the lead's email: a claim the agent sees as such, linked only by the agent.
  await visitor.getByRole("button", { name: "Leave your email" }).click();
  const contact = visitor.getByRole("form", { name: "Leave your email" });
  await contact.getByLabel("Name").fill("Ada");
  await contact.getByLabel("Email").fill("ada@harbour.example");
  await contact.getByRole("button", { name: "Send details" }).click();
  await expect(log).toContainText("The team can reach you at ada@harbour.example");
  const leadCard = page.getByRole("region", { name: "Lead", exact: true });
  await expect(leadCard).toContainText("Not verified", { timeout: 5_000 });
  await expect(leadCard).toContainText("A lead with this email exists");
  await shot(page, "inbox-claimed-contact");
  await leadCard.getByRole("button", { name: "Link to lead" }).click();
  await expect(leadCard).not.toContainText("A lead with this email exists");
  await expect(leadCard.getByRole("link", { name: "Ada Harbour" })).toBeVisible();

  await page.getByRole("button", { name: "Close conversation" }).click();
  const confirm = page.getByRole("dialog");
  await expect(confirm).toBeVisible();
  await confirm.getByRole("button", { name: "Close conversation" }).click();
  await expect(log).toContainText("closed", { timeout: 5_000 });
  await page.goto("/conversations");
  await page.getByRole("tab", { name: "Closed" }).click();
  await expect(page.getByRole("tabpanel")).toContainText("any jazz coming up?");
  await visitorContext.close();
});
