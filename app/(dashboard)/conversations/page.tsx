import { Bot, CheckCircle2, Hand, Info, MessagesSquare, SearchX } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { buttonClasses } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { canManage, requireSession } from "@/lib/auth/session";
import { isInboxCursor, listInbox, type InboxItem } from "@/lib/conversations/inbox";
import { searchText } from "@/lib/conversations/inbox-search";
import { countNeedingPerson } from "@/lib/conversations/read";
import { formatDateTime } from "@/lib/platform/format/date-time";
import { relativeTime } from "@/lib/platform/format/relative-time";
import { AutoRefresh } from "./_components/auto-refresh";
import { InboxList, type InboxRow } from "./_components/inbox-list";
import { InboxSearchForm } from "./_components/inbox-search-form";
import { InboxTabs } from "./_components/inbox-tabs";
import { INBOX_PANEL_ID, INBOX_TABS, inboxTab, tabId, visitorLabel, type InboxTab } from "./view-model";
import { ReadOnlyNote } from "@/components/ui/read-only-note";

export const metadata: Metadata = { title: "Conversations" };

const PAGE_SIZE = 25;
const REFRESH_MS = 4_000;

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);
const tabHref = (tab: InboxTab, search: string | null, cursor?: string) =>
  `/conversations?tab=${tab.key}${search ? `&q=${encodeURIComponent(search)}` : ""}` +
  `${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`;

export default async function ConversationsPage({ searchParams }: Props) {
  const context = await requireSession();
  const { account } = context;
  const raw = await searchParams;
  const tab = inboxTab(first(raw.tab));
  const search = searchText(first(raw.q));
  const given = first(raw.cursor) || null;
  // A page link this inbox did not issue (stale, or edited by hand) shows the newest page, and says so.
  const staleLink = !isInboxCursor(given);
  const cursor = staleLink ? null : given;
  const [page, needing] = await Promise.all([
    listInbox(account.id, { status: tab.status, cursor, limit: PAGE_SIZE, search }),
    countNeedingPerson(account.id),
  ]);
  const now = new Date();
  const rows = page.data.map((item) => inboxRow(item, account.timezone, now));

  const tabs = INBOX_TABS.map((each) => ({
    key: each.key,
    label: each.label,
    href: tabHref(each, search),
    ...(each.status === "handoff_requested" && needing > 0
      ? { count: needing, countDescription: `${needing} waiting` }
      : {}),
  }));

  return (
    <>
      <PageHeader
        title="Conversations"
        description={
          "Chats of visitors with your assistant. When a visitor asks for a " +
          "person, the conversation waits here for your team."
        }
      />
      <AutoRefresh intervalMs={REFRESH_MS} />
      {canManage(context) ? null : (
        <ReadOnlyNote>
          You can read this account&apos;s conversations. Only owners and admins can reply to visitors or close
          conversations.
        </ReadOnlyNote>
      )}
      <InboxSearchForm tab={tab.key} search={search} clearHref={tabHref(tab, null)} />
      <InboxTabs tabs={tabs} current={tab.key} label="Conversations by status" />
      {staleLink ? (
        <p
          role="status"
          className="mt-4 flex items-center gap-2 rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900"
        >
          <Info className="size-4 shrink-0 text-amber-600" aria-hidden />
          That page link is out of date or was changed, so the newest conversations are shown.
        </p>
      ) : null}
      <div role="tabpanel" id={INBOX_PANEL_ID} aria-labelledby={tabId(tab.key)} className="pt-4">
        {rows.length === 0 ? (
          <TabEmptyState tab={tab} paged={Boolean(cursor)} search={search} />
        ) : (
          <div className="space-y-4">
            <InboxList rows={rows} />
            <nav aria-label="Conversation pages" className="flex items-center justify-between gap-2">
              <p className="text-xs text-zinc-500">
                {search ? `Matching “${search}”. ` : ""}Newest activity first. Updates by itself.
              </p>
              <div className="flex gap-2">
                {cursor ? (
                  <Link href={tabHref(tab, search)} className={buttonClasses("secondary", "sm")}>
                    Newest
                  </Link>
                ) : null}
                {page.nextCursor ? (
                  <Link href={tabHref(tab, search, page.nextCursor)} className={buttonClasses("secondary", "sm")}>
                    Older <span aria-hidden>→</span>
                  </Link>
                ) : null}
              </div>
            </nav>
          </div>
        )}
      </div>
    </>
  );
}

const EXCERPT_AUTHOR = { assistant: "Assistant", agent: "Team", system: "Notice" } as const;

function inboxRow(item: InboxItem, timezone: string, now: Date): InboxRow {
  const { conversation, firstQuestion, lastMessage, matchingLead } = item;
  const visitor = visitorLabel(conversation);
  // The latest message is shown unless it is the first question itself.
  const latest = lastMessage && lastMessage.id !== firstQuestion?.id ? lastMessage : null;
  return {
    id: conversation.id,
    visitor,
    email: conversation.visitorName && conversation.visitorEmail ? conversation.visitorEmail : null,
    claimed: conversation.visitorEmail !== null,
    leadExists: matchingLead !== null,
    status: conversation.status,
    topic: firstQuestion?.text ?? null,
    latest: latest
      ? {
          by: latest.author === "visitor" ? visitor : latest.authorName || EXCERPT_AUTHOR[latest.author],
          text: latest.text,
        }
      : null,
    when: {
      relative: relativeTime(conversation.lastMessageAt, now),
      full: formatDateTime(conversation.lastMessageAt, timezone),
      iso: conversation.lastMessageAt.toISOString(),
    },
    page: pageLabel(conversation.pageUrl),
  };
}

/** Host and path of the page the chat was opened on: what tells an agent where the visitor was. */
function pageLabel(url: string | null): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url);
    return `${parsed.host}${parsed.pathname === "/" ? "" : parsed.pathname}`;
  } catch {
    return url.slice(0, 200);
  }
}

const EMPTY: Record<InboxTab["status"], { icon: React.ReactNode; title: string; text: string }> = {
  handoff_requested: {
    icon: <Hand className="size-6" aria-hidden />,
    title: "Nobody is waiting for a person",
    text:
      "When a visitor presses “Talk to a person” in the chat, or asks for one, " +
      "the conversation appears here until someone on your team replies.",
  },
  handoff_active: {
    icon: <MessagesSquare className="size-6" aria-hidden />,
    title: "No conversations with your team",
    text: "A conversation moves here when someone on your team replies to a visitor who asked for a person.",
  },
  bot: {
    icon: <Bot className="size-6" aria-hidden />,
    title: "The assistant is not chatting with anyone",
    text:
      "Visitors who chat on your website are answered by the assistant from your events. " +
      "Their conversations show here while the assistant handles them.",
  },
  closed: {
    icon: <CheckCircle2 className="size-6" aria-hidden />,
    title: "No closed conversations",
    text: "Conversations close when someone on your team closes them, or after 24 hours without a message.",
  },
};

function TabEmptyState({ tab, paged, search }: { tab: InboxTab; paged: boolean; search: string | null }) {
  const empty = EMPTY[tab.status];
  if (search && !paged) {
    return (
      <EmptyState
        icon={<SearchX className="size-6" aria-hidden />}
        title={`No conversations under “${tab.label}” match “${search}”`}
        action={
          <Link href={tabHref(tab, null)} className={buttonClasses("secondary")}>
            Clear search
          </Link>
        }
      >
        <p>The search looks at the visitor&apos;s name and email and at what the visitor and your team wrote.</p>
      </EmptyState>
    );
  }
  if (paged) {
    return (
      <EmptyState
        title="No older conversations"
        action={
          <Link href={tabHref(tab, search)} className={buttonClasses("secondary")}>
            Back to the newest
          </Link>
        }
      />
    );
  }
  return (
    <EmptyState
      icon={empty.icon}
      title={empty.title}
      action={
        tab.status === "bot" ? (
          <Link href="/settings/chat-widget" className={buttonClasses("secondary")}>
            Set up the chat widget
          </Link>
        ) : null
      }
    >
      <p>{empty.text}</p>
    </EmptyState>
  );
}
