"use client";

import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import {
  chatApi,
  mergeMessages,
  sessionStore,
  type ApiResult,
  type ChatConversation,
  type ChatMessage,
  type ConversationStatus,
  type Session,
} from "./chat-client";

/*
 * The chat's state: the conversation (remembered per widget), its messages, the visitor's messages on
 * their way, and what went wrong. New messages arrive by polling every 1.5 s while the conversation is
 * open and the page visible (docs/chat-widget.md, "Why polling"). The poll cursor only moves with poll
 * answers: messages returned by a post can be newer than one the poll has not seen yet.
 */

export const POLL_INTERVAL_MS = 1_500;

export type Pending = { localId: string; text: string; state: "sending" | "failed"; error?: string };
/** A problem not tied to one message (a refused handoff, a message the server would not take). */
export type Notice = { message: string } | null;
type Answer = { conversation: ChatConversation; messages: ChatMessage[] };

export type ChatOptions = { widgetId: string; pageUrl: string | null; referrer: string | null };

const rateLimitedText = (seconds: number) =>
  `You're sending messages too quickly. Try again in ${seconds} second${seconds === 1 ? "" : "s"}.`;

export function useChat({ widgetId, pageUrl, referrer }: ChatOptions) {
  const api = useMemo(() => chatApi(widgetId), [widgetId]);
  const [session, setSession] = useState<Session | null>(null);
  const [status, setStatus] = useState<ConversationStatus | null>(null);
  const [contactLeft, setContactLeft] = useState(false);
  const [messages, setMessages] = useState<ChatMessage[]>([]);
  const [pending, setPending] = useState<Pending[]>([]);
  const [notice, setNotice] = useState<Notice>(null);
  const [busy, setBusy] = useState(false);
  const sessionRef = useRef<Session | null>(null);
  const cursor = useRef(0);

  const apply = useCallback((answer: Answer) => {
    setStatus(answer.conversation.status);
    setContactLeft(answer.conversation.contact_left);
    setMessages((current) => mergeMessages(current, answer.messages));
  }, []);

  const reset = useCallback(() => {
    sessionStore.clear(widgetId);
    sessionRef.current = null;
    cursor.current = 0;
    setSession(null);
    setStatus(null);
    setContactLeft(false);
    setMessages([]);
    setPending([]);
    setNotice(null);
  }, [widgetId]);

  const pollNow = useCallback(async () => {
    for (let page = 0; page < 20; page++) {
      const current = sessionRef.current;
      if (!current) return;
      const result = await api.poll(current, cursor.current);
      if (sessionRef.current !== current) return;
      if (!result.ok) {
        // The conversation is gone (or the token with it): start afresh rather than poll a 404 forever.
        if (result.kind === "gone") reset();
        return;
      }
      apply(result.value);
      cursor.current = Math.max(cursor.current, ...result.value.messages.map((message) => message.seq));
      if (!result.value.has_more) return;
    }
  }, [api, apply, reset]);

  // A reload continues the conversation this browser had with this widget.
  useEffect(() => {
    const stored = sessionStore.load(widgetId);
    if (!stored) return;
    sessionRef.current = stored;
    // eslint-disable-next-line react-hooks/set-state-in-effect -- localStorage exists only after hydration.
    setSession(stored);
    void pollNow();
  }, [widgetId, pollNow]);

  useEffect(() => {
    if (!session || status === "closed") return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const tick = async () => {
      if (!document.hidden) await pollNow();
      if (!stopped) timer = setTimeout(tick, POLL_INTERVAL_MS);
    };
    timer = setTimeout(tick, POLL_INTERVAL_MS);
    const onVisible = () => {
      if (!document.hidden) void pollNow();
    };
    document.addEventListener("visibilitychange", onVisible);
    return () => {
      stopped = true;
      clearTimeout(timer);
      document.removeEventListener("visibilitychange", onVisible);
    };
  }, [session, status, pollNow]);

  /** Starts the conversation with its first message or a handoff request; nothing is stored before that. */
  const start = useCallback(
    async (first: { text?: string; handoff?: boolean }): Promise<ApiResult<Answer>> => {
      const locale = typeof navigator === "undefined" ? null : navigator.language || null;
      const result = await api.start({ ...first, page_url: pageUrl, referrer, locale });
      if (!result.ok) return result;
      const created = { conversationId: result.value.conversation.id, token: result.value.visitor_token };
      sessionStore.save(widgetId, created);
      sessionRef.current = created;
      setSession(created);
      return result;
    },
    [api, pageUrl, referrer, widgetId],
  );

  /** What a failed write means for the visitor, and whether sending it again can help. */
  const explain = useCallback(
    (result: Exclude<ApiResult<Answer>, { ok: true }>): { error: string; retry: boolean } => {
      if (result.kind === "rate_limited") return { error: rateLimitedText(result.retryAfter), retry: true };
      if (result.kind === "closed") {
        setStatus("closed");
        return { error: "This conversation is closed.", retry: false };
      }
      if (result.kind === "gone") {
        reset();
        return { error: "This conversation is no longer available.", retry: true };
      }
      if (result.kind === "invalid") return { error: result.message, retry: false };
      return { error: "Not sent. Check your connection and try again.", retry: true };
    },
    [reset],
  );

  const deliver = useCallback(
    async (item: Pending): Promise<{ restore?: string }> => {
      setPending((list) =>
        list.map((entry) =>
          entry.localId === item.localId ? { ...entry, state: "sending", error: undefined } : entry,
        ),
      );
      setNotice(null);
      const current = sessionRef.current;
      const result = current ? await api.send(current, item.text) : await start({ text: item.text });
      if (result.ok) {
        setPending((list) => list.filter((entry) => entry.localId !== item.localId));
        apply(result.value);
        return {};
      }
      const { error, retry } = explain(result);
      if (retry) {
        setPending((list) =>
          list.map((entry) => (entry.localId === item.localId ? { ...entry, state: "failed", error } : entry)),
        );
        return {};
      }
      setPending((list) => list.filter((entry) => entry.localId !== item.localId));
      if (result.kind === "invalid") setNotice({ message: error });
      return { restore: item.text };
    },
    [api, apply, explain, start],
  );

  const send = useCallback(
    (text: string) =>
      deliver({ localId: `local-${Date.now()}-${Math.random().toString(36).slice(2)}`, text, state: "sending" }),
    [deliver],
  );
  const retry = useCallback(
    (localId: string) => {
      const item = pending.find((entry) => entry.localId === localId);
      if (item) void deliver(item);
    },
    [deliver, pending],
  );

  const askForPerson = useCallback(async () => {
    setBusy(true);
    setNotice(null);
    const current = sessionRef.current;
    const result = current ? await api.handoff(current) : await start({ handoff: true });
    setBusy(false);
    if (result.ok) apply(result.value);
    else setNotice({ message: explain(result).error });
  }, [api, apply, explain, start]);

  const leaveContact = useCallback(
    async (contact: {
      name: string;
      email: string;
    }): Promise<{ ok: true } | { ok: false; fields: Record<string, string>; message: string }> => {
      const current = sessionRef.current;
      if (!current) return { ok: false, fields: {}, message: "Send a message first." };
      const result = await api.contact(current, contact);
      if (result.ok) {
        apply(result.value);
        return { ok: true };
      }
      if (result.kind === "invalid")
        return {
          ok: false,
          fields: Object.fromEntries(result.details.map((detail) => [detail.field ?? "email", detail.message])),
          message: result.message,
        };
      return { ok: false, fields: {}, message: explain(result).error };
    },
    [api, apply, explain],
  );

  // Until the first answer names the conversation, a second write would start another one.
  const starting = !session && (busy || pending.some((entry) => entry.state === "sending"));
  return {
    session,
    status,
    contactLeft,
    messages,
    pending,
    notice,
    busy,
    starting,
    send,
    retry,
    askForPerson,
    leaveContact,
    startNew: reset,
    dismissNotice: () => setNotice(null),
  };
}
