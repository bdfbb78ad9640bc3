import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { DetailList } from "@/components/ui/detail-item";
import type { Conversation } from "@/lib/conversations/model";
import { formatDateTime } from "@/lib/format/date-time";
import { safeHttpUrl, STATUS_BADGES } from "../../view-model";

const cardClasses = "rounded-xl bg-white p-5 shadow-sm ring-1 ring-zinc-200";
const none = <span className="text-zinc-400">—</span>;

const CLOSED_BY: Record<string, string> = { agent: "by your team", api: "through the API", idle: "after 24 hours without a message" };

/** What the visitor's browser reported: shown as text; only http(s) addresses become links. */
function UrlValue({ value }: { value: string | null }) {
  if (!value) return none;
  const href = safeHttpUrl(value);
  if (!href) return <span className="break-all">{value}</span>;
  return (
    <a href={href} target="_blank" rel="noopener noreferrer nofollow" className="break-all text-indigo-600 hover:underline">
      {value}
    </a>
  );
}

/** The linked lead and the session data of a conversation (server component). */
export function SessionDetails({ conversation, lead, timezone }: { conversation: Conversation; lead: { id: string; name: string } | null; timezone: string }) {
  const when = (date: Date) => <time dateTime={date.toISOString()}>{formatDateTime(date, timezone)}</time>;
  const badge = STATUS_BADGES[conversation.status];
  const entries: Array<[string, React.ReactNode]> = [
    [
      "Status",
      <Badge key="status" tone={badge.tone} dot>
        {badge.label}
      </Badge>,
    ],
    ["Started", when(conversation.createdAt)],
    ["Last message", when(conversation.lastMessageAt)],
    ...(conversation.handoffRequestedAt ? ([["Person requested", when(conversation.handoffRequestedAt)]] as Array<[string, React.ReactNode]>) : []),
    ...(conversation.closedAt
      ? ([["Closed", <>{when(conversation.closedAt)} {conversation.closedReason ? CLOSED_BY[conversation.closedReason] ?? "" : ""}</>]] as Array<[string, React.ReactNode]>)
      : []),
    ["Page", <UrlValue key="page" value={conversation.pageUrl} />],
    ["Referrer", <UrlValue key="referrer" value={conversation.referrer} />],
    ["Browser", conversation.userAgent ? <span className="break-words">{conversation.userAgent}</span> : none],
    ["Language", conversation.locale ?? none],
    ["Conversation ID", <code key="id" className="font-mono text-xs break-all">{conversation.id}</code>],
  ];
  return (
    <aside className="space-y-6">
      <section aria-labelledby="conversation-lead" className={cardClasses}>
        <h2 id="conversation-lead" className="text-sm font-semibold text-zinc-900">
          Lead
        </h2>
        {lead ? (
          <p className="mt-2 text-sm">
            <Link href={`/leads/${lead.id}`} className="font-medium text-indigo-600 hover:underline">
              {lead.name}
            </Link>
          </p>
        ) : (
          <p className="mt-2 text-sm text-zinc-500">No lead yet. When the visitor leaves a name and email in the chat, a lead is created and linked here.</p>
        )}
        {conversation.visitorEmail ? (
          <p className="mt-1 text-sm break-all text-zinc-600">
            <a href={`mailto:${conversation.visitorEmail}`} className="hover:underline">
              {conversation.visitorEmail}
            </a>
          </p>
        ) : null}
      </section>
      <section aria-labelledby="conversation-session" className={cardClasses}>
        <h2 id="conversation-session" className="text-sm font-semibold text-zinc-900">
          Session
        </h2>
        <DetailList entries={entries} className="mt-3" />
      </section>
    </aside>
  );
}
