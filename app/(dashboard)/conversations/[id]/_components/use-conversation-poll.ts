"use client";

import { useRouter } from "next/navigation";
import { useCallback, useEffect, useRef, useState } from "react";
import type { ConversationState, MessagesPoll, MessageView } from "../../view-model";

/** Visitors see an agent's reply within 2 s; the agent's page polls as often (docs/conversations.md). */
export const POLL_MS = 1_500;
/** Pages fetched back to back in one poll while the route says has_more. */
const MAX_PAGES_PER_POLL = 20;

export type Connection = "ok" | "retrying" | "signed_out" | "gone";

/** Adds messages not shown yet, in seq order (a reply the action returned may also come by the poll). */
export function mergeMessages(current: MessageView[], incoming: MessageView[]): MessageView[] {
  if (incoming.length === 0) return current;
  const known = new Set(current.map((message) => message.id));
  const added = incoming.filter((message) => !known.has(message.id));
  if (added.length === 0) return current;
  return [...current, ...added].sort((a, b) => a.seq - b.seq);
}

const sameState = (a: ConversationState, b: ConversationState) =>
  a.status === b.status && a.leadId === b.leadId && a.visitor === b.visitor;

/**
 * The conversation's messages and state, kept current by polling the dashboard's messages route for
 * what came after the last seq seen. Only the poll advances that cursor: a message added locally (the
 * agent's own reply) may have a higher seq than a visitor message not fetched yet. When the state
 * changes (a handoff, a close, a lead linked) the server parts of the page are refreshed.
 */
export function useConversationPoll(
  conversationId: string,
  initial: { messages: MessageView[]; state: ConversationState },
) {
  const router = useRouter();
  const [messages, setMessages] = useState(initial.messages);
  const [state, setState] = useState(initial.state);
  const [connection, setConnection] = useState<Connection>("ok");
  const afterSeq = useRef(initial.messages.reduce((max, message) => Math.max(max, message.seq), 0));
  const stateRef = useRef(initial.state);
  const busy = useRef(false);
  const stopped = useRef(false);

  const applyState = useCallback(
    (next: ConversationState) => {
      if (sameState(stateRef.current, next)) return;
      stateRef.current = next;
      setState(next);
      router.refresh();
    },
    [router],
  );

  const poll = useCallback(async () => {
    if (busy.current || stopped.current) return;
    busy.current = true;
    try {
      for (let page = 0; page < MAX_PAGES_PER_POLL; page++) {
        const response = await fetch(
          `/api/dashboard/conversations/${encodeURIComponent(conversationId)}/messages?after=${afterSeq.current}`,
          {
            cache: "no-store",
            headers: { Accept: "application/json" },
          },
        );
        if (response.status === 401 || response.status === 404) {
          stopped.current = true;
          setConnection(response.status === 401 ? "signed_out" : "gone");
          return;
        }
        if (!response.ok) throw new Error(`poll answered ${response.status}`);
        const body = (await response.json()) as MessagesPoll;
        const last = body.messages[body.messages.length - 1];
        if (last) afterSeq.current = Math.max(afterSeq.current, last.seq);
        setMessages((current) => mergeMessages(current, body.messages));
        applyState(body.conversation);
        setConnection("ok");
        if (!body.has_more) break;
      }
    } catch {
      setConnection("retrying");
    } finally {
      busy.current = false;
    }
  }, [conversationId, applyState]);

  useEffect(() => {
    const tick = () => {
      if (!document.hidden) void poll();
    };
    const timer = setInterval(tick, POLL_MS);
    document.addEventListener("visibilitychange", tick);
    return () => {
      clearInterval(timer);
      document.removeEventListener("visibilitychange", tick);
    };
  }, [poll]);

  /** The agent's own reply, shown at once; the status it implies is confirmed by the next poll. */
  const addOwnMessage = useCallback(
    (message: MessageView) => {
      setMessages((current) => mergeMessages(current, [message]));
      if (stateRef.current.status === "handoff_requested")
        applyState({ ...stateRef.current, status: "handoff_active" });
    },
    [applyState],
  );

  return { messages, state, connection, poll, addOwnMessage };
}
