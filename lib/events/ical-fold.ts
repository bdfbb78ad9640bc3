/*
 * RFC 5545 line folding (3.1) exactly as ical-generator's foldLines does it: a line breaks before the
 * character that would take it past 74 octets, and continues after CRLF and a space. foldLines measures
 * every character with a new TextEncoder, too slow for a feed of thousands of events; here the size
 * comes from the code unit. tests/unit/ical-fold.test.ts keeps the two equal on random text.
 */
export function foldLongLines(text: string): string {
  return text
    .split("\r\n")
    .map((line) => (line.length <= 24 ? line : foldLine(line)))
    .join("\r\n");
}

function foldLine(line: string): string {
  let folded = "";
  let start = 0;
  let octets = 0;
  for (let i = 0; i < line.length; i++) {
    const unit = line.charCodeAt(i);
    const pair = unit >= 0xd800 && unit <= 0xdbff && i + 1 < line.length;
    // A lone surrogate is what TextEncoder makes of it: U+FFFD, three octets.
    const size = pair ? 4 : unit < 0x80 ? 1 : unit < 0x800 ? 2 : 3;
    octets += size;
    if (octets > 74) {
      folded += line.slice(start, i) + "\r\n ";
      start = i;
      octets = size;
    }
    if (pair) i++;
  }
  return folded + line.slice(start);
}
