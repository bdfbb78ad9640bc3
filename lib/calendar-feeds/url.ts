import { allowLoopbackTargets } from "@/lib/webhook-subscriptions/addresses";
import { validateTargetUrl, type TargetUrlReason } from "@/lib/webhook-subscriptions/target-url";
import { fail, type Failure } from "@/lib/platform/result";

/*
 * Which URLs a feed may be fetched from: the rules of outbound notification targets
 * (docs/outbound-webhooks.md, "SSRF rules"), checked by the same code: https only, at most 2,048
 * characters, no credentials, port 443 or 1024–65535, a host that is and resolves to a public address.
 * OUTBOUND_ALLOW_LOOPBACK_TARGETS=1 (development and tests) allows loopback hosts over http too; private
 * addresses stay refused. The fetch checks the address again at connect time and on every redirect.
 */

export type FeedUrlCode = TargetUrlReason;

const MESSAGES: Record<FeedUrlCode, string> = {
  invalid_url: "Enter the feed's full address, starting with https:// (e.g. https://calendar.example.com/events.ics).",
  url_too_long: "The feed URL is too long: use at most 2,048 characters.",
  scheme_not_allowed: "Use an https:// feed URL: plain http, file: and other schemes are not allowed.",
  credentials_not_allowed: "Remove the user name and password from the URL.",
  port_not_allowed: "The feed URL's port is not allowed: use 443 (leave the port out) or a port from 1024 to 65535.",
  private_address: "The feed URL points to a private or local network address. Use a public https feed URL.",
};

/** The normalised URL to store, or why it is refused (the code is the outbound rule's reason). */
export async function checkFeedUrl(raw: string): Promise<{ ok: true; url: string } | Failure<FeedUrlCode>> {
  // webcal:// is how calendar sites often link a feed: it is the same address over https.
  const text = raw.trim().replace(/^webcals?:\/\//i, "https://");
  const checked = await validateTargetUrl(text, { allowLoopback: allowLoopbackTargets() });
  if (!checked.ok) return fail(checked.code, MESSAGES[checked.code]);
  return { ok: true, url: checked.value };
}
