import Bowser from "bowser";

/**
 * A user agent as a person reads it: "Chrome 156 on Linux", "Safari 18 on iOS". The raw string is what a
 * browser sends (visitors control it), so it is only read, never trusted; an agent bowser cannot name is
 * shown as sent, cut to 120 characters.
 */
export function describeBrowser(userAgent: string): string {
  const parsed = Bowser.parse(userAgent);
  const name = parsed.browser.name;
  if (!name) return userAgent.length > 120 ? `${userAgent.slice(0, 119)}…` : userAgent;
  const major = parsed.browser.version?.split(".")[0];
  const os = parsed.os.name;
  return `${name}${major ? ` ${major}` : ""}${os ? ` on ${os}` : ""}`;
}
