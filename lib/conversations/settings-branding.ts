import { z } from "zod";
import { normaliseHexColor } from "./brand";
import { checkMessageText } from "./text";

/*
 * The branding fields of Settings → Chat widget (docs/chat-widget.md, "Branding"): the business name,
 * logo and colour the chat shows, and the line telling a visitor who asks for a person when the team
 * usually answers. Every field may be left empty. Pure, so the form shares the limits; the migration
 * chat_widget_branding repeats them as checks.
 */

export const MAX_BUSINESS_NAME_LENGTH = 80;
export const MAX_LOGO_URL_LENGTH = 2_048;
export const MAX_REPLY_TIME_LENGTH = 160;

export type Branding = { businessName: string; logoUrl: string; brandColor: string; replyTime: string };
export const BRANDING_FIELDS = ["businessName", "logoUrl", "brandColor", "replyTime"] as const;

const length = (text: string) => [...text].length;

/** One line of text (white space collapsed), at most `max` characters, or empty. */
const line = (subject: string, max: number) =>
  z.string().transform((value, context) => {
    const collapsed = value.replace(/\s+/g, " ").trim();
    if (collapsed === "") return "";
    const checked = checkMessageText(collapsed);
    if (!checked.ok) {
      context.addIssue({ code: "custom", message: `${subject} contains characters that are not text.` });
      return z.NEVER;
    }
    if (length(checked.text) > max) {
      const over = length(checked.text) - max;
      context.addIssue({
        code: "custom",
        message: `${subject} can be at most ${max} characters; shorten it by ${over}.`,
      });
      return z.NEVER;
    }
    return checked.text;
  });

const logoUrl = z.string().transform((value, context) => {
  const text = value.trim();
  if (text === "") return "";
  const refuse = (message: string) => {
    context.addIssue({ code: "custom", message });
    return z.NEVER;
  };
  if (text.length > MAX_LOGO_URL_LENGTH)
    return refuse(`The logo's address can be at most ${MAX_LOGO_URL_LENGTH.toLocaleString("en")} characters.`);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return refuse("Enter the logo's full address, such as https://www.example.com/logo.png.");
  }
  // Browsers block or flag plain-http images on an https page; other schemes are not images on the web.
  if (url.protocol !== "https:") return refuse("The logo's address must start with https://.");
  if (url.username || url.password) return refuse("The logo's address must not contain a user name or password.");
  return url.href.length > MAX_LOGO_URL_LENGTH
    ? refuse(`The logo's address can be at most ${MAX_LOGO_URL_LENGTH.toLocaleString("en")} characters.`)
    : url.href;
});

const brandColor = z.string().transform((value, context) => {
  if (value.trim() === "") return "";
  const color = normaliseHexColor(value);
  if (color) return color;
  context.addIssue({ code: "custom", message: "Enter the colour as a hex code such as #4F46E5, or leave it empty." });
  return z.NEVER;
});

export const brandingSchema = z.object({
  businessName: line("The business name", MAX_BUSINESS_NAME_LENGTH),
  logoUrl,
  brandColor,
  replyTime: line("This note", MAX_REPLY_TIME_LENGTH),
});

/** The branding as stored (trimmed, the colour as "#rrggbb", the logo URL normalised), or each field's problem. */
export function checkBranding(
  form: Partial<Branding>,
): { ok: true; branding: Branding } | { ok: false; problems: Partial<Record<keyof Branding, string[]>> } {
  const parsed = brandingSchema.safeParse({ businessName: "", logoUrl: "", brandColor: "", replyTime: "", ...form });
  if (parsed.success) return { ok: true, branding: parsed.data };
  const problems: Partial<Record<keyof Branding, string[]>> = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0] as keyof Branding;
    problems[field] ??= [issue.message];
  }
  return { ok: false, problems };
}
