"use client";

import { RefreshCw, WifiOff } from "lucide-react";
import Link from "next/link";
import type { ConversationState, MessageView } from "../../view-model";
import { MessageLog } from "./message-log";
import { ReplyBox } from "./reply-box";
import { useConversationPoll, type Connection } from "./use-conversation-poll";

/**
 * The live part of a conversation's page: the messages, kept current by polling, and (for owners and
 * admins) the reply box, enabled by the state the poll reports.
 */
export function ConversationLive({
  conversationId,
  initialMessages,
  initialState,
  canReply,
}: {
  conversationId: string;
  initialMessages: MessageView[];
  initialState: ConversationState;
  canReply: boolean;
}) {
  const { messages, state, connection, poll, addOwnMessage } = useConversationPoll(conversationId, {
    messages: initialMessages,
    state: initialState,
  });
  return (
    <section
      aria-label="Messages and reply"
      className="overflow-hidden rounded-xl bg-white shadow-sm ring-1 ring-zinc-200"
    >
      <ConnectionNotice connection={connection} conversationId={conversationId} />
      <MessageLog messages={messages} label="Messages" />
      {canReply ? (
        <ReplyBox
          conversationId={conversationId}
          status={state.status}
          onSent={addOwnMessage}
          onRefused={() => void poll()}
        />
      ) : null}
    </section>
  );
}

const CONNECTION_TEXT: Record<Exclude<Connection, "ok">, string> = {
  retrying: "Cannot reach the server. New messages will appear when the connection is back.",
  signed_out: "Your session has ended. Sign in again to see new messages.",
  gone: "This conversation no longer exists.",
};

/** One status region, present from the start, so a change of the connection is announced. */
function ConnectionNotice({ connection, conversationId }: { connection: Connection; conversationId: string }) {
  const problem = connection === "ok" ? null : connection;
  return (
    <div
      role="status"
      className={
        problem
          ? "flex items-center gap-2 border-b border-amber-200 bg-amber-50 px-4 py-2 text-sm text-amber-900 sm:px-6"
          : "sr-only"
      }
    >
      {problem === "retrying" ? <RefreshCw className="size-4 shrink-0 animate-spin" aria-hidden /> : null}
      {problem && problem !== "retrying" ? <WifiOff className="size-4 shrink-0" aria-hidden /> : null}
      {problem ? <span>{CONNECTION_TEXT[problem]}</span> : null}
      {problem === "signed_out" ? (
        <Link
          href={`/sign-in?callbackUrl=${encodeURIComponent(`/conversations/${conversationId}`)}`}
          className="ml-auto font-medium underline"
        >
          Sign in
        </Link>
      ) : null}
    </div>
  );
}
