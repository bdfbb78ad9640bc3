/*
 * Links in the assistant's and the team's answers (an event's page, a ticket shop) become clickable:
 * http and https only, opened in a new tab, and marked as user-generated (rel="noopener nofollow ugc") so
 * they pass no referrer-borne access and no ranking. Everything else stays a text node: nothing in a
 * message is ever read as HTML.
 */

export type TextPart = { text: string; href?: string };

// A URL ends at whitespace or a quote/bracket; punctuation that ends a sentence is not part of it.
const URL_PATTERN = /\bhttps?:\/\/[^\s<>"'`]+/gi;
const TRAILING = /[.,;:!?)\]}]+$/;

export function linkParts(text: string): TextPart[] {
  const parts: TextPart[] = [];
  let last = 0;
  for (const match of text.matchAll(URL_PATTERN)) {
    const start = match.index ?? 0;
    const raw = match[0];
    const url = raw.replace(TRAILING, "");
    let href: string | null = null;
    try {
      const parsed = new URL(url);
      if (parsed.protocol === "http:" || parsed.protocol === "https:") href = parsed.href;
    } catch {
      href = null;
    }
    if (!href) continue;
    if (start > last) parts.push({ text: text.slice(last, start) });
    parts.push({ text: url, href });
    last = start + url.length;
  }
  if (last < text.length) parts.push({ text: text.slice(last) });
  return parts;
}

export function LinkedText({ text, className }: { text: string; className?: string }) {
  return (
    <>
      {linkParts(text).map((part, index) =>
        part.href ? (
          <a
            key={index}
            href={part.href}
            target="_blank"
            rel="noopener nofollow ugc"
            className={className ?? "font-medium text-indigo-700 underline underline-offset-2 hover:text-indigo-900"}
          >
            {part.text}
          </a>
        ) : (
          part.text
        ),
      )}
    </>
  );
}
