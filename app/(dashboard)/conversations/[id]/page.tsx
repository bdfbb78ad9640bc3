import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { BackLink } from "@/components/ui/detail-card";
import { PageHeader } from "@/components/ui/page-header";
import { canManage, requireSession } from "@/lib/auth/session";
import { Badge } from "@/components/ui/badge";
import { leadsMatchingClaims } from "@/lib/conversations/claims";
import { claimedContact } from "@/lib/conversations/model";
import { getConversation, listMessages } from "@/lib/conversations/read";
import { leadDisplayName } from "@/lib/leads/display";
import { getLead } from "@/lib/leads/read";
import { conversationState, INBOX_TABS, messageView, UNVERIFIED_BADGE, visitorLabel } from "../view-model";
import { CloseConversationButton } from "./_components/close-conversation-button";
import { ConversationLive } from "./_components/conversation-live";
import { SessionDetails } from "./_components/session-details";

export const metadata: Metadata = { title: "Conversation" };

/** The first messages render with the page; the poll fetches the rest after the last one, page by page. */
const FIRST_PAGE = 500;

export default async function ConversationPage({ params }: { params: Promise<{ id: string }> }) {
  const context = await requireSession();
  const { account } = context;
  const { id } = await params;
  const conversation = await getConversation(account.id, id);
  if (!conversation) notFound();
  const [messages, lead, matches] = await Promise.all([
    listMessages(account.id, conversation.id, { limit: FIRST_PAGE }),
    conversation.leadId ? getLead(account.id, conversation.leadId) : null,
    leadsMatchingClaims(account.id, [conversation]),
  ]);
  const manager = canManage(context);
  const visitor = visitorLabel(conversation);
  const claim = claimedContact(conversation);
  const tab = INBOX_TABS.find((each) => each.status === conversation.status) ?? INBOX_TABS[0];

  return (
    <>
      <BackLink href={`/conversations?tab=${tab.key}`}>All conversations</BackLink>
      <PageHeader
        title={visitor}
        description={claim ? <ClaimDescription name={claim.name} email={claim.email} /> : undefined}
        actions={
          manager && conversation.status !== "closed" ? (
            <CloseConversationButton conversationId={conversation.id} visitor={visitor} />
          ) : null
        }
      />
      <div className="grid gap-6 lg:grid-cols-3">
        <div className="min-w-0 lg:col-span-2">
          {manager ? null : (
            <p className="mb-3 text-sm text-zinc-600">
              You can read this conversation. Only owners and admins can reply or close it.
            </p>
          )}
          <ConversationLive
            conversationId={conversation.id}
            initialMessages={messages.data.map((message) => messageView(message, account.timezone))}
            initialState={conversationState(conversation)}
            canReply={manager}
          />
        </div>
        <SessionDetails
          conversation={conversation}
          lead={lead ? { id: lead.id, name: leadDisplayName(lead) } : null}
          matchingLead={matches.get(conversation.id) ?? null}
          canLink={manager}
          timezone={account.timezone}
        />
      </div>
    </>
  );
}

/** Under the visitor's name: their email (when the name is the title) and that both are only claimed. */
function ClaimDescription({ name, email }: { name: string | null; email: string }) {
  return (
    <span className="inline-flex flex-wrap items-center gap-2">
      {name ? <span className="break-all">{email}</span> : null}
      <Badge tone={UNVERIFIED_BADGE.tone} title={UNVERIFIED_BADGE.title}>
        {UNVERIFIED_BADGE.label}
      </Badge>
    </span>
  );
}
