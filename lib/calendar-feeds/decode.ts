/*
 * A feed's body as iCalendar text, or why it is not one (docs/calendar-feeds.md, "How a feed is fetched"):
 * not UTF-8, a web page, no VCALENDAR, or cut off before its end. Such a body fails the sync and changes nothing.
 */

/** The file as text, or why it is not an iCalendar file. */
export function decodeFeed(
  body: Buffer,
  contentType: string,
): { ok: true; text: string } | { ok: false; error: string } {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(body);
  } catch {
    return { ok: false, error: "The feed is not valid UTF-8 text, so it cannot be read as an iCalendar file." };
  }
  const start = text.trimStart();
  if (/^text\/html/i.test(contentType) || start.startsWith("<")) {
    return { ok: false, error: "This is not an iCalendar file: the server sent a web page (HTML)." };
  }
  if (!/^BEGIN:VCALENDAR\r?\n/i.test(start)) return { ok: false, error: "This is not an iCalendar file." };
  if (!/END:VCALENDAR\s*$/i.test(start)) {
    return { ok: false, error: "The feed is incomplete: it ends before END:VCALENDAR (the file was cut off)." };
  }
  return { ok: true, text: start };
}
