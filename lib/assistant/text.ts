/*
 * Visitor text folded for matching: lower case, without diacritics ("Café" → "cafe"), curly quotes
 * straightened, HTML tags and control characters dropped. Tags are removed only from what the assistant
 * matches on; the message itself stays text wherever it is shown.
 */

export const MAX_MESSAGE_LENGTH = 4_000;

export function fold(message: string): string {
  return message
    .slice(0, MAX_MESSAGE_LENGTH)
    .replace(/<\/?[a-z!][^<>]*>/gi, " ")
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .replace(/[\p{Cc}\p{Cf}]+/gu, " ")
    .replace(/[‘’`´]/g, "'")
    .toLowerCase();
}

/** The words of folded text: runs of letters and digits ("kids' pottery" → kids, pottery). */
export function words(folded: string): string[] {
  return folded.split(/[^\p{L}\p{N}]+/u).filter(Boolean);
}
