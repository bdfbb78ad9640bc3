/*
 * Follow-ups to a list the assistant gave (docs/assistant.md, "More than three"): "show more", "the
 * rest", "what else?", or a plain "yes" after the offer to show them. Read on folded text (text.ts), and
 * only as the whole message, so "more jazz" is still a question about jazz.
 */

export type FollowUp = "more" | "affirm";

const LEAD = String.raw`^\W*(?:(?:ok(?:ay)?|yes|yeah|yep|sure|please|and|so|great|cool|thanks)\W+)*`;
const TAIL = String.raw`(?:\s+(?:events|ones|results|options|of\s+them|as\s+well|too|please|pls))*\W*$`;
const ASK = String.raw`(?:(?:can|could)\s+(?:you|i)\s+|please\s+)?(?:show|see|list|give|tell|send)\s+(?:me\s+|us\s+)?`;

const MORE = [
  // "more", "show more", "show me the rest", "the others", "any more?", "the next ones"
  new RegExp(
    `${LEAD}(?:${ASK})?(?:(?:the|all|all\\s+the|some|any|a\\s+few)\\s+)?` +
      `(?:more|rest|others|other\\s+ones|remaining(?:\\s+ones)?|next\\s+ones?)${TAIL}`,
  ),
  // "show them", "show me all of them", "list them all"
  new RegExp(`${LEAD}${ASK}(?:them|those|all(?:\\s+of\\s+them)?|them\\s+all|everything)${TAIL}`),
  // "what else?", "anything else on?"
  new RegExp(`${LEAD}(?:what|anything)\\s+else(?:\\s+(?:is\\s+there|is\\s+on|on|do\\s+you\\s+have))?\\W*$`),
];

const AFFIRM =
  /^\W*(?:yes|yeah|yep|yup|sure|please|go\s+(?:on|ahead)|why\s+not|absolutely|of\s+course)(?:\W+(?:please|yes))*\W*$/;

/** Whether a folded message only asks to continue the last list ("more") or only says yes ("affirm"). */
export function followUpOf(folded: string): FollowUp | null {
  const text = folded.trim();
  if (MORE.some((pattern) => pattern.test(text))) return "more";
  return AFFIRM.test(text) ? "affirm" : null;
}
