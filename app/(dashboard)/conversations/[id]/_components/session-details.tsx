import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { Card } from "@/components/ui/detail-card";
import { DetailList } from "@/components/ui/detail-item";
import type { MatchingLead } from "@/lib/conversations/claims";
import type { Conversation } from "@/lib/conversations/model";
import { formatDateTime } from "@/lib/platform/format/date-time";
import { safeHttpUrl, STATUS_BADGES, UNVERIFIED_BADGE } from "../../view-model";
import { LinkLeadButton } from "./link-lead-button";
import { describeBrowser } from "@/lib/platform/format/browser";
import { none } from "@/components/ui/none";

const CLOSED_BY: Record<string, string> = {
  agent: "by your team",
  api: "through the API",
  idle: "after 24 hours without a message",
};

/** What the visitor's browser reported: shown as text; only http(s) addresses become links. */
function UrlValue({ value }: { value: string | null }) {
  if (!value) return none;
  const href = safeHttpUrl(value);
  if (!href) return <span className="break-all">{value}</span>;
  return (
    <a
      href={href}
      target="_blank"
      rel="noopener noreferrer nofollow"
      className="break-all text-indigo-600 hover:underline"
    >
      {value}
    </a>
  );
}

type Props = {
  conversation: Conversation;
  lead: { id: string; name: string } | null;
  /** A lead with the email the visitor left, not linked to this conversation. */
  matchingLead: MatchingLead | null;
  /** Whether the viewer may press "Link to lead" (owners and admins). */
  canLink: boolean;
  timezone: string;
};

/** The linked lead, what the visitor claimed, and the session data of a conversation (server component). */
export function SessionDetails({ conversation, lead, matchingLead, canLink, timezone }: Props) {
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
    ...(conversation.handoffRequestedAt
      ? ([["Person requested", when(conversation.handoffRequestedAt)]] as Array<[string, React.ReactNode]>)
      : []),
    ...(conversation.closedAt
      ? ([
          [
            "Closed",
            <>
              {when(conversation.closedAt)}{" "}
              {conversation.closedReason ? (CLOSED_BY[conversation.closedReason] ?? "") : ""}
            </>,
          ],
        ] as Array<[string, React.ReactNode]>)
      : []),
    ["Page", <UrlValue key="page" value={conversation.pageUrl} />],
    ["Referrer", <UrlValue key="referrer" value={conversation.referrer} />],
    [
      "Browser",
      conversation.userAgent ? (
        <span key="browser" className="break-words" title={conversation.userAgent}>
          {describeBrowser(conversation.userAgent)}
        </span>
      ) : (
        none
      ),
    ],
    ["Language", conversation.locale ?? none],
    [
      "Conversation ID",
      <code key="id" className="font-mono text-xs break-all">
        {conversation.id}
      </code>,
    ],
  ];
  return (
    <aside className="space-y-6">
      <Card id="conversation-lead" title="Lead">
        {lead ? (
          <p className="mt-2 text-sm">
            <Link href={`/leads/${lead.id}`} className="font-medium text-indigo-600 hover:underline">
              {lead.name}
            </Link>
          </p>
        ) : conversation.visitorEmail ? (
          <p className="mt-2 text-sm text-zinc-500">No lead is linked.</p>
        ) : (
          <p className="mt-2 text-sm text-zinc-500">
            No lead yet. When the visitor leaves a name and email in the chat, a lead is created and linked here.
          </p>
        )}
        {conversation.visitorEmail ? (
          <ClaimedContact name={conversation.visitorName} email={conversation.visitorEmail} />
        ) : null}
        {matchingLead ? (
          <MatchingLeadNote conversationId={conversation.id} lead={matchingLead} canLink={canLink} />
        ) : null}
      </Card>
      <Card id="conversation-session" title="Session">
        <DetailList entries={entries} className="mt-3" />
      </Card>
    </aside>
  );
}

/** The name and email the visitor typed in the chat, marked as the claim they are. */
function ClaimedContact({ name, email }: { name: string | null; email: string }) {
  return (
    <div className="mt-3 border-t border-zinc-100 pt-3">
      <p className="flex items-center gap-2 text-xs font-medium text-zinc-500">
        Left in the chat
        <Badge tone={UNVERIFIED_BADGE.tone} title={UNVERIFIED_BADGE.title}>
          {UNVERIFIED_BADGE.label}
        </Badge>
      </p>
      {name ? <p className="mt-1.5 text-sm font-medium break-words text-zinc-900">{name}</p> : null}
      <p className="mt-0.5 text-sm break-all text-zinc-600">
        <a href={`mailto:${email}`} className="hover:underline">
          {email}
        </a>
      </p>
    </div>
  );
}

type NoteProps = { conversationId: string; lead: MatchingLead; canLink: boolean };

/** A lead has the claimed email: say so, and let an owner or admin who knows it is the same person link them. */
function MatchingLeadNote({ conversationId, lead, canLink }: NoteProps) {
  return (
    <div className="mt-3 rounded-lg bg-amber-50 p-3 text-sm text-amber-900 ring-1 ring-amber-200 ring-inset">
      <p>
        A lead with this email exists:{" "}
        <Link href={`/leads/${lead.id}`} className="font-medium underline-offset-2 hover:underline">
          {lead.name}
        </Link>
        . Anyone can type an email in the chat, so the conversation was not linked to it.
      </p>
      {canLink ? (
        <div className="mt-2.5">
          <LinkLeadButton conversationId={conversationId} leadId={lead.id} />
        </div>
      ) : (
        <p className="mt-1.5 text-xs text-amber-800">Owners and admins can link them.</p>
      )}
    </div>
  );
}
