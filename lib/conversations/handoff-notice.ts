/*
 * The system line a visitor sees after asking for a person (docs/chat-widget.md). Pure, so the settings
 * preview shows the very text the chat will write. The team's usual reply time, when set in Settings →
 * Chat widget, follows on a line of its own, as written.
 */

export const HANDOFF_NOTICE =
  "You asked to talk to a person. Someone from the team will answer here as soon as they can.";

export function handoffNotice(replyTime: string): string {
  const note = replyTime.trim();
  return note ? `${HANDOFF_NOTICE}\n${note}` : HANDOFF_NOTICE;
}
