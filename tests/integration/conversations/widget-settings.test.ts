import { beforeEach, describe, expect, it } from "vitest";
import { saveChatWidgetSettingsAction } from "@/app/(dashboard)/settings/chat-widget/actions";
import ChatWidgetPage from "@/app/(dashboard)/settings/chat-widget/page";
import { MAX_ALLOWED_ORIGINS } from "@/lib/conversations/origins";
import { getOrCreateWidget } from "@/lib/conversations/widget";
import { db } from "@/lib/platform/db/client";
import { appBaseUrl } from "@/lib/platform/http/app-url";
import { addMember, createAccount, signedInOwner } from "../../support/factories";
import { signInAs, signOut } from "../../support/request-context";
import { ownerWithWidget, settingsForm, storedSettings } from "./widget-support";
import { renderedText } from "../../support/rendered-text";

/* Settings → Chat widget: the page and its one server action, against the real database. */

beforeEach(() => signOut());

const form = (values: { assistantName?: string; greeting?: string; allowedOrigins?: string } = {}) =>
  settingsForm({
    assistantName: "Ada from Harbour Hall",
    greeting: "Hello! Ask me what's on this week.",
    allowedOrigins: "https://www.harbourhall.example",
    ...values,
  });

const stored = (widgetId: string) => storedSettings(widgetId, ["assistantName", "greeting", "allowedOrigins"] as const);

const auditEntries = (accountId: string) =>
  db.prisma.auditLog.findMany({ where: { accountId, targetType: "chat_widget" }, orderBy: { createdAt: "asc" } });

describe("the Chat widget settings page", () => {
  it("creates the account's widget on the first visit and shows its embed snippet and hosted chat page", async () => {
    const owner = await signedInOwner();
    const page = renderedText(await ChatWidgetPage());

    const widget = await getOrCreateWidget(owner.accountId);
    expect(widget.id).toMatch(/^wid_/);
    const base = appBaseUrl();
    expect(base).toMatch(/^https?:\/\/[^/]+$/);
    expect(page).toContain(
      JSON.stringify(`<script src="${base}/widget.js" data-widget="${widget.id}" async></script>`).slice(1, -1),
    );
    expect(page).toContain(`/chat/${widget.id}`);
    expect(await db.prisma.chatWidget.count({ where: { accountId: owner.accountId } })).toBe(1);
  });
});

describe("saving the chat widget settings", () => {
  it("stores an owner's name, greeting and origins, which the hosted chat then uses", async () => {
    const { widget: before } = await ownerWithWidget();
    const result = await saveChatWidgetSettingsAction(form());

    expect(result).toEqual({
      ok: true,
      data: {
        assistantName: "Ada from Harbour Hall",
        greeting: "Hello! Ask me what's on this week.",
        allowedOrigins: ["https://www.harbourhall.example"],
        businessName: "",
        logoUrl: "",
        brandColor: "",
        replyTime: "",
        message: "Settings saved.",
      },
    });
    expect(await stored(before.id)).toEqual({
      assistantName: "Ada from Harbour Hall",
      greeting: "Hello! Ask me what's on this week.",
      allowedOrigins: ["https://www.harbourhall.example"],
    });
  });

  it("lets an admin save, and refuses a member without changing anything", async () => {
    const { owner, widget: before } = await ownerWithWidget();
    const member = await addMember(owner.accountId, "member");
    await signInAs(member);

    expect(await saveChatWidgetSettingsAction(form())).toEqual({
      ok: false,
      error: "Only owners and admins can do this.",
    });
    expect(await stored(before.id)).toEqual({
      assistantName: before.assistantName,
      greeting: before.greeting,
      allowedOrigins: [],
    });
    expect(await auditEntries(owner.accountId)).toEqual([]);

    await signInAs(await addMember(owner.accountId, "admin"));
    expect((await saveChatWidgetSettingsAction(form())).ok).toBe(true);
  });

  it("refuses a signed-out caller", async () => {
    expect(await saveChatWidgetSettingsAction(form())).toEqual({
      ok: false,
      error: "Your session has ended. Sign in again.",
    });
  });

  it("refuses entries that are not origins, naming each one, and changes nothing", async () => {
    const { owner, widget: before } = await ownerWithWidget();
    const result = await saveChatWidgetSettingsAction(
      form({
        allowedOrigins:
          "https://good.example\nharbourhall.example\nhttps://shop.example/tickets\n" +
          "https://*.example.com\nftp://files.example",
      }),
    );

    expect(result).toEqual({
      ok: false,
      error: "Check the fields marked below.",
      fieldErrors: {
        allowedOrigins: [
          "“harbourhall.example” is not an origin: write " +
            "https://harbourhall.example (the scheme and host, nothing after them).",
          "“https://shop.example/tickets” is not an origin: " +
            "write https://shop.example (the scheme and host, nothing after them).",
          "“https://*.example.com”: wildcards are not allowed. List each site on its own line.",
          "“ftp://files.example” is not a website origin such as https://www.example.com.",
        ],
      },
    });
    expect(await stored(before.id)).toEqual({
      assistantName: before.assistantName,
      greeting: before.greeting,
      allowedOrigins: [],
    });
    expect(await auditEntries(owner.accountId)).toEqual([]);
  });

  it("refuses an entry that would smuggle another directive into the frame policy", async () => {
    const { widget: before } = await ownerWithWidget();
    const result = await saveChatWidgetSettingsAction(form({ allowedOrigins: "https://a.example; script-src *" }));
    expect(result.ok).toBe(false);
    expect(!result.ok && result.fieldErrors?.allowedOrigins?.[0]).toContain("“https://a.example; script-src *”");
    expect((await stored(before.id))?.allowedOrigins).toEqual([]);
  });

  it("stores origins canonical: lower-case, without a trailing slash, each once, in the order given", async () => {
    const { widget: before } = await ownerWithWidget();
    const result = await saveChatWidgetSettingsAction(
      form({
        allowedOrigins:
          "  HTTPS://WWW.Example.COM/  " +
          "\n\nhttps://shop.example.com:8443\nhttps://www.example.com\nhttp://localhost:3000/",
      }),
    );

    const origins = ["https://www.example.com", "https://shop.example.com:8443", "http://localhost:3000"];
    expect(result.ok && result.data.allowedOrigins).toEqual(origins);
    expect((await stored(before.id))?.allowedOrigins).toEqual(origins);
  });

  it("saves an empty list, so only the hosted chat page works again", async () => {
    const { widget: before } = await ownerWithWidget();
    await saveChatWidgetSettingsAction(form());
    expect((await saveChatWidgetSettingsAction(form({ allowedOrigins: " \n " }))).ok).toBe(true);
    expect((await stored(before.id))?.allowedOrigins).toEqual([]);
  });

  it(`refuses more than ${MAX_ALLOWED_ORIGINS} origins`, async () => {
    const { widget: before } = await ownerWithWidget();
    const many = Array.from({ length: MAX_ALLOWED_ORIGINS + 2 }, (_, index) => `https://site${index}.example`).join(
      "\n",
    );
    expect(await saveChatWidgetSettingsAction(form({ allowedOrigins: many }))).toEqual({
      ok: false,
      error: "Check the fields marked below.",
      fieldErrors: { allowedOrigins: [`List at most ${MAX_ALLOWED_ORIGINS} origins; remove 2 of them.`] },
    });
    expect((await stored(before.id))?.allowedOrigins).toEqual([]);
  });

  it("refuses a greeting over 500 characters and a name over 60, empty or not text, and changes nothing", async () => {
    const { owner, widget: before } = await ownerWithWidget();
    const unchanged = { assistantName: before.assistantName, greeting: before.greeting, allowedOrigins: [] };

    expect(await saveChatWidgetSettingsAction(form({ greeting: "x".repeat(501) }))).toEqual({
      ok: false,
      error: "Check the fields marked below.",
      fieldErrors: { greeting: ["The greeting can be at most 500 characters."] },
    });
    expect(await saveChatWidgetSettingsAction(form({ assistantName: "n".repeat(61), greeting: "  " }))).toEqual({
      ok: false,
      error: "Check the fields marked below.",
      fieldErrors: {
        assistantName: ["The name can be at most 60 characters."],
        greeting: ["Enter a greeting: it is the first message visitors see."],
      },
    });
    const notText = await saveChatWidgetSettingsAction(form({ assistantName: "Bot\u0000", greeting: "Hi\u0007" }));
    expect(!notText.ok && notText.fieldErrors).toEqual({
      assistantName: ["The name contains characters that are not text."],
      greeting: ["The greeting contains characters that are not text."],
    });
    expect(await stored(before.id)).toEqual(unchanged);
    expect(await auditEntries(owner.accountId)).toEqual([]);

    // Exactly at the limits is fine; characters, not UTF-16 units, are counted.
    expect(
      (await saveChatWidgetSettingsAction(form({ assistantName: "🙂".repeat(60), greeting: "é".repeat(500) }))).ok,
    ).toBe(true);
  });

  it("keeps markup in the greeting as typed: it is shown as text, never as HTML", async () => {
    const { widget: before } = await ownerWithWidget();
    const greeting = `<img src=x onerror="alert(1)"> Hi & welcome`;
    expect((await saveChatWidgetSettingsAction(form({ greeting }))).ok).toBe(true);
    expect((await stored(before.id))?.greeting).toBe(greeting);
  });

  it("records who changed what in the audit log, and nothing when the settings did not change", async () => {
    const { owner, widget: before } = await ownerWithWidget();
    await saveChatWidgetSettingsAction(form());
    const again = await saveChatWidgetSettingsAction(form({ allowedOrigins: "https://WWW.harbourhall.example/" }));
    expect(again.ok && again.data.message).toBe("Nothing changed: these are the current settings.");

    const entries = await auditEntries(owner.accountId);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      action: "chat_widget.updated",
      actorId: owner.user.id,
      actorLabel: `${owner.user.name} <${owner.user.email}>`,
      targetId: before.id,
      targetLabel: "Chat widget",
      metadata: {
        changed: ["assistantName", "greeting", "allowedOrigins"],
        from: before.assistantName,
        to: "Ada from Harbour Hall",
        allowedOrigins: ["https://www.harbourhall.example"],
      },
    });
  });

  it("changes only the signed-in person's own account's widget", async () => {
    const { widget: before } = await ownerWithWidget();
    const other = await createAccount();
    const otherWidget = await getOrCreateWidget(other.accountId);
    await saveChatWidgetSettingsAction(form());
    expect((await stored(before.id))?.assistantName).toBe("Ada from Harbour Hall");
    expect((await stored(otherWidget.id))?.assistantName).toBe(otherWidget.assistantName);
  });
});
