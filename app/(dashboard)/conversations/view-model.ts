import type { BadgeTone } from "@/components/ui/badge";
import { formatDateTime, formatTime } from "@/lib/platform/format/date-time";
import type { Conversation, ConversationStatus, Message, MessageAuthor } from "@/lib/conversations/model";

/*
 * Words and shapes of the inbox, shared by its server pages, its polling route and its client
 * components (no server imports). Only display fields cross to the browser; times are formatted on
 * the server in the account's time zone.
 */

export type InboxTab = { key: string; label: string; status: ConversationStatus };

/** The tabs in order; the first is the default. Their labels are the tabs' accessible names. */
export const INBOX_TABS: readonly InboxTab[] = [
  { key: "needs-person", label: "Needs a person", status: "handoff_requested" },
  { key: "active", label: "Active", status: "handoff_active" },
  { key: "assistant", label: "Assistant", status: "bot" },
  { key: "closed", label: "Closed", status: "closed" },
];

/** Ids tying each tab to the one panel (the selected tab's list). */
export const INBOX_PANEL_ID = "inbox-panel";
export const tabId = (key: string) => `inbox-tab-${key}`;

export const inboxTab = (key: string | undefined): InboxTab =>
  INBOX_TABS.find((tab) => tab.key === key) ?? INBOX_TABS[0];

export const STATUS_BADGES: Record<ConversationStatus, { label: string; tone: BadgeTone }> = {
  handoff_requested: { label: "Needs a person", tone: "amber" },
  handoff_active: { label: "Active", tone: "green" },
  bot: { label: "Assistant", tone: "indigo" },
  closed: { label: "Closed", tone: "neutral" },
};

/**
 * A name and email the visitor typed in the chat are a claim, never proof (docs/conversations.md, "Leads
 * from the chat"): wherever the inbox shows them it says so with this badge.
 */
export const UNVERIFIED_BADGE = {
  label: "Not verified",
  tone: "amber",
  title: "The visitor typed this in the chat. Anyone can type any email, so it is not proof of who they are.",
} as const satisfies { label: string; tone: BadgeTone; title: string };

/**
 * The visitor as the inbox names them: what they told us, else where they were ("Visitor from /pricing")
 * and the end of the conversation's id, so two anonymous visitors on the same page read apart.
 */
export function visitorLabel(
  conversation: Pick<Conversation, "id" | "visitorName" | "visitorEmail" | "pageUrl">,
): string {
  if (conversation.visitorName || conversation.visitorEmail)
    return (conversation.visitorName || conversation.visitorEmail)!;
  const short = conversation.id.slice(-4);
  const path = pagePath(conversation.pageUrl);
  return path ? `Visitor from ${path} · ${short}` : `Visitor · ${short}`;
}

function pagePath(pageUrl: string | null): string | null {
  if (!pageUrl) return null;
  try {
    const path = new URL(pageUrl).pathname;
    return path.length > 40 ? `${path.slice(0, 39)}…` : path;
  } catch {
    return null;
  }
}

export type MessageView = {
  id: string;
  seq: number;
  author: MessageAuthor;
  /** Who wrote it, as shown above the text; empty for system lines. */
  name: string;
  text: string;
  time: string;
  full: string;
  iso: string;
};

const AUTHOR_FALLBACK: Record<MessageAuthor, string> = {
  visitor: "Visitor",
  assistant: "Assistant",
  agent: "Team",
  system: "",
};

export function messageView(message: Message, timezone: string): MessageView {
  return {
    id: message.id,
    seq: message.seq,
    author: message.author,
    name: message.author === "system" ? "" : message.authorName || AUTHOR_FALLBACK[message.author],
    text: message.text,
    time: formatTime(message.createdAt, timezone),
    full: formatDateTime(message.createdAt, timezone),
    iso: message.createdAt.toISOString(),
  };
}

/** What the conversation page re-reads while it polls: when any of it changes, the page refreshes. */
export type ConversationState = { status: ConversationStatus; leadId: string | null; visitor: string };

export const conversationState = (conversation: Conversation): ConversationState => ({
  status: conversation.status,
  leadId: conversation.leadId,
  visitor: visitorLabel(conversation),
});

/** What the polling route answers (GET /api/dashboard/conversations/{id}/messages?after=<seq>). */
export type MessagesPoll = { conversation: ConversationState; messages: MessageView[]; has_more: boolean };

/** The page and referrer the visitor reported are untrusted text: only http(s) ones become links. */
export function safeHttpUrl(value: string | null): string | null {
  if (!value) return null;
  try {
    const url = new URL(value);
    return url.protocol === "https:" || url.protocol === "http:" ? url.href : null;
  } catch {
    return null;
  }
}
