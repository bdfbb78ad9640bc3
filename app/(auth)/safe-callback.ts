/** Only same-site paths are followed after sign-in, never another origin (open redirect). */
export function safeCallbackUrl(value: unknown): string {
  if (typeof value !== "string" || !value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) {
    return "/knowledge/events";
  }
  return value;
}
