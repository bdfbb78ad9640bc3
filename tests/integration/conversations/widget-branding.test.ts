import { NextRequest } from "next/server";
import { beforeEach, describe, expect, it } from "vitest";
import { saveChatWidgetSettingsAction } from "@/app/(dashboard)/settings/chat-widget/actions";
import ChatPage from "@/app/chat/[widgetId]/page";
import { brandColors, contrastRatio, readableTextColor } from "@/lib/conversations/brand";
import { HANDOFF_NOTICE, postVisitorMessage, requestHandoff, startConversation } from "@/lib/conversations/visitor";
import { findWidget, getOrCreateWidget } from "@/lib/conversations/widget";
import { db } from "@/lib/platform/db/client";
import { proxy } from "@/proxy";
import { createAccount } from "../../support/factories";
import { signOut } from "../../support/request-context";
import { ownerWithWidget, settingsForm, storedSettings } from "./widget-support";
import { renderedText } from "../../support/rendered-text";

/* Settings → Chat widget's branding: what is refused, what is stored, and what the visitor then sees. */

beforeEach(() => signOut());

const BRANDING = {
  businessName: "Harbour Hall",
  logoUrl: "https://cdn.harbourhall.example/logo.png",
  brandColor: "#0F766E",
  replyTime: "We usually answer within an hour, Monday to Friday.",
};

const form = (values: Partial<typeof BRANDING> = {}) =>
  settingsForm({
    assistantName: "Ada",
    greeting: "Hello! Ask me what's on.",
    allowedOrigins: "",
    ...BRANDING,
    ...values,
  });

const branding = (widgetId: string) =>
  storedSettings(widgetId, ["businessName", "logoUrl", "brandColor", "replyTime"] as const);

// Any session cookie passes the proxy's first gate (the page itself checks it).
const cspOf = async (path: string) =>
  (
    await proxy(new NextRequest(`http://localhost:3000${path}`, { headers: { cookie: "next-auth.session-token=x" } }))
  ).headers.get("Content-Security-Policy") ?? "";

describe("saving the chat's branding", () => {
  it("stores the business name, logo, colour (as #rrggbb) and reply time, and the audit log names them", async () => {
    const { owner, widget } = await ownerWithWidget();
    const result = await saveChatWidgetSettingsAction(
      form({ brandColor: " 0F766E ", businessName: " Harbour   Hall " }),
    );
    expect(result.ok && result.data).toMatchObject({ ...BRANDING, brandColor: "#0f766e", message: "Settings saved." });
    expect(await branding(widget.id)).toEqual({ ...BRANDING, brandColor: "#0f766e" });
    const entry = await db.prisma.auditLog.findFirst({
      where: { accountId: owner.accountId, targetType: "chat_widget" },
    });
    expect(entry?.metadata).toMatchObject({
      changed: expect.arrayContaining(["businessName", "logoUrl", "brandColor", "replyTime"]),
    });
  });

  it("refuses a colour that is not a hex code, naming the field, and changes nothing", async () => {
    const { widget } = await ownerWithWidget();
    for (const brandColor of ["teal", "#12345", "#GGGGGG", "rgb(0,0,0)", "#0f766e; background:url(x)"]) {
      expect(await saveChatWidgetSettingsAction(form({ brandColor }))).toEqual({
        ok: false,
        error: "Check the fields marked below.",
        fieldErrors: { brandColor: ["Enter the colour as a hex code such as #4F46E5, or leave it empty."] },
      });
    }
    expect((await findWidget(widget.id))?.brandColor).toBe("");
    // Three digits are a colour too.
    const short = await saveChatWidgetSettingsAction(form({ brandColor: "#abc" }));
    expect(short.ok && short.data.brandColor).toBe("#aabbcc");
  });

  it("refuses a logo that is not an https address", async () => {
    const { widget } = await ownerWithWidget();
    const cases: Array<[string, string]> = [
      ["http://cdn.harbourhall.example/logo.png", "The logo's address must start with https://."],
      ["javascript:alert(1)", "The logo's address must start with https://."],
      ["data:image/png;base64,iVBORw0KGgo=", "The logo's address must start with https://."],
      ["logo.png", "Enter the logo's full address, such as https://www.example.com/logo.png."],
      ["https://user:secret@cdn.example/logo.png", "The logo's address must not contain a user name or password."],
      [`https://cdn.example/${"a".repeat(2_048)}.png`, "The logo's address can be at most 2,048 characters."],
    ];
    for (const [logoUrl, message] of cases) {
      const result = await saveChatWidgetSettingsAction(form({ logoUrl }));
      expect(!result.ok && result.fieldErrors, logoUrl).toEqual({ logoUrl: [message] });
    }
    expect((await findWidget(widget.id))?.logoUrl).toBe("");
  });

  it("refuses a business name over 80 characters and a reply time over 160, saying by how much", async () => {
    const { widget } = await ownerWithWidget();
    const result = await saveChatWidgetSettingsAction(
      form({ businessName: "h".repeat(82), replyTime: "w".repeat(161), brandColor: "blue" }),
    );
    expect(result).toEqual({
      ok: false,
      error: "Check the fields marked below.",
      fieldErrors: {
        businessName: ["The business name can be at most 80 characters; shorten it by 2."],
        brandColor: ["Enter the colour as a hex code such as #4F46E5, or leave it empty."],
        replyTime: ["This note can be at most 160 characters; shorten it by 1."],
      },
    });
    const notText = await saveChatWidgetSettingsAction(form({ replyTime: "Soon\u0000" }));
    expect(!notText.ok && notText.fieldErrors).toEqual({
      replyTime: ["This note contains characters that are not text."],
    });
    expect(await branding(widget.id)).toEqual({ businessName: "", logoUrl: "", brandColor: "", replyTime: "" });
    // Exactly at the limits, counted in characters.
    expect(
      (await saveChatWidgetSettingsAction(form({ businessName: "🙂".repeat(80), replyTime: "é".repeat(160) }))).ok,
    ).toBe(true);
  });

  it("saves every field empty: the chat falls back to the assistant's name and the default colour", async () => {
    const { widget } = await ownerWithWidget();
    await saveChatWidgetSettingsAction(form());
    const empty = { businessName: "", logoUrl: "", brandColor: "", replyTime: "" };
    expect((await saveChatWidgetSettingsAction(form(empty))).ok).toBe(true);
    expect(await branding(widget.id)).toEqual(empty);
  });

  it("is refused by the database too when another writer bypasses the form", async () => {
    const { owner } = await ownerWithWidget();
    await expect(
      db.pool.query(`UPDATE chat_widgets SET logo_url = 'http://x.example/a.png' WHERE account_id = $1`, [
        owner.accountId,
      ]),
    ).rejects.toThrow(/chat_widgets_logo_url_https/);
    await expect(
      db.pool.query(`UPDATE chat_widgets SET brand_color = 'red' WHERE account_id = $1`, [owner.accountId]),
    ).rejects.toThrow(/chat_widgets_brand_color_hex/);
  });
});

describe("what the visitor sees", () => {
  it("shows the business name on the hosted chat, and allows images only from the logo's origin", async () => {
    const { widget } = await ownerWithWidget();
    await saveChatWidgetSettingsAction(form());
    const page = renderedText(
      await ChatPage({ params: Promise.resolve({ widgetId: widget.id }), searchParams: Promise.resolve({}) }),
    );
    expect(page).toContain("Harbour Hall");
    expect(page).toContain("https://cdn.harbourhall.example/logo.png");
    expect(page).toContain("#0f766e");

    expect(await cspOf(`/chat/${widget.id}`)).toContain("img-src 'self' data: blob: https://cdn.harbourhall.example;");
    // Other pages keep images to the app's own origin; the settings page previews any https logo.
    expect(await cspOf("/sign-in")).toContain("img-src 'self' data: blob:;");
    expect(await cspOf("/settings/chat-widget")).toContain("img-src 'self' data: blob: https:;");
  });

  it("tells a visitor who asks for a person when the team usually answers, by button or in words", async () => {
    const { widget: before } = await ownerWithWidget();
    await saveChatWidgetSettingsAction(form());
    const widget = (await findWidget(before.id))!;

    const byButton = await startConversation(widget, { pageUrl: null, referrer: null, userAgent: null, locale: null });
    const pressed = await requestHandoff(widget, byButton.conversation);
    expect(pressed.ok && pressed.messages.map((message) => message.text)).toEqual([
      `${HANDOFF_NOTICE}\nWe usually answer within an hour, Monday to Friday.`,
    ]);

    const inWords = await startConversation(widget, { pageUrl: null, referrer: null, userAgent: null, locale: null });
    const asked = await postVisitorMessage(widget, inWords.conversation, "Can I talk to a person?");
    expect(asked.ok && asked.messages.at(-1)?.text).toBe(
      `${HANDOFF_NOTICE}\nWe usually answer within an hour, Monday to Friday.`,
    );

    // Without a reply time the note is the plain one.
    const plain = await getOrCreateWidget((await createAccount()).accountId);
    const other = await startConversation(plain, { pageUrl: null, referrer: null, userAgent: null, locale: null });
    const noted = await requestHandoff(plain, other.conversation);
    expect(noted.ok && noted.messages[0]?.text).toBe(HANDOFF_NOTICE);
  });
});

describe("the text colour on the brand colour", () => {
  it("always reaches WCAG AA (4.5:1), whichever colour the owner picks", () => {
    for (let value = 0; value < 0x1000000; value += 0x010101 * 7 + 0x0301) {
      const colour = `#${value.toString(16).padStart(6, "0")}`;
      expect(contrastRatio(colour, readableTextColor(colour)), colour).toBeGreaterThanOrEqual(4.5);
    }
    expect(brandColors("")).toEqual({ background: "#4f46e5", text: "#ffffff", focus: "#4f46e5" });
    // Too light for a focus ring on white: the ring is near-black.
    expect(brandColors("#fde68a").focus).toBe("#18181b");
    expect(brandColors("#facc15").text).not.toBe("#ffffff");
    // A mid grey is one where neither white nor the app's near-black is enough.
    expect(readableTextColor("#777777")).toBe("#000000");
  });
});
