/*
 * The chat page's side of the visitor endpoints (docs/chat-widget.md, "Endpoints"): typed fetches and the
 * conversation remembered in localStorage, keyed by widget, so a reload continues it. The token goes in
 * a header, never in a URL.
 */

export type ConversationStatus = "bot" | "handoff_requested" | "handoff_active" | "closed";
export type ChatMessage = {
  id: string;
  seq: number;
  author: "visitor" | "assistant" | "agent" | "system";
  author_name: string | null;
  text: string;
  created_at: string;
};
export type ChatConversation = { id: string; status: ConversationStatus; contact_left: boolean };
export type Session = { conversationId: string; token: string };

export type ApiResult<T> =
  | { ok: true; value: T }
  | { ok: false; kind: "rate_limited"; retryAfter: number }
  | { ok: false; kind: "closed" }
  | { ok: false; kind: "gone" }
  | { ok: false; kind: "invalid"; message: string; details: { field?: string; message: string }[] }
  | { ok: false; kind: "failed" };

type Answer = { conversation: ChatConversation; messages: ChatMessage[] };

async function call<T>(
  url: string,
  init: { method: "GET" | "POST"; token?: string; body?: unknown },
): Promise<ApiResult<T>> {
  const headers: Record<string, string> = { Accept: "application/json" };
  if (init.token) headers["X-Visitor-Token"] = init.token;
  if (init.body !== undefined) headers["Content-Type"] = "application/json";
  let response: Response;
  try {
    response = await fetch(url, {
      method: init.method,
      headers,
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      cache: "no-store",
    });
  } catch {
    return { ok: false, kind: "failed" };
  }
  if (response.ok) {
    try {
      return { ok: true, value: (await response.json()) as T };
    } catch {
      return { ok: false, kind: "failed" };
    }
  }
  if (response.status === 429)
    return {
      ok: false,
      kind: "rate_limited",
      retryAfter: Math.max(1, Number(response.headers.get("Retry-After")) || 10),
    };
  if (response.status === 409) return { ok: false, kind: "closed" };
  if (response.status === 404) return { ok: false, kind: "gone" };
  if (response.status === 400) {
    const body = (await response.json().catch(() => null)) as {
      error?: { message?: string; details?: { field?: string; message: string }[] };
    } | null;
    return {
      ok: false,
      kind: "invalid",
      message: body?.error?.message ?? "Check your message.",
      details: body?.error?.details ?? [],
    };
  }
  return { ok: false, kind: "failed" };
}

export function chatApi(widgetId: string) {
  const base = `/api/chat/${encodeURIComponent(widgetId)}/conversations`;
  const at = (session: Session, tail: string) => `${base}/${encodeURIComponent(session.conversationId)}/${tail}`;
  return {
    start: (body: {
      text?: string;
      handoff?: boolean;
      page_url: string | null;
      referrer: string | null;
      locale: string | null;
    }) => call<Answer & { visitor_token: string }>(base, { method: "POST", body }),
    send: (session: Session, text: string) =>
      call<Answer>(at(session, "messages"), { method: "POST", token: session.token, body: { text } }),
    poll: (session: Session, after: number) =>
      call<Answer & { has_more: boolean }>(`${at(session, "messages")}?after=${after}`, {
        method: "GET",
        token: session.token,
      }),
    handoff: (session: Session) => call<Answer>(at(session, "handoff"), { method: "POST", token: session.token }),
    contact: (session: Session, contact: { name: string; email: string }) =>
      call<Answer>(at(session, "contact"), { method: "POST", token: session.token, body: contact }),
  };
}

const storageKey = (widgetId: string) => `chat-widget:${widgetId}`;

/** Storage may be blocked (private modes, third-party frames): then the conversation lasts as long as the page. */
export const sessionStore = {
  load(widgetId: string): Session | null {
    try {
      const value = JSON.parse(window.localStorage.getItem(storageKey(widgetId)) ?? "null") as Partial<Session> | null;
      return value && typeof value.conversationId === "string" && typeof value.token === "string"
        ? { conversationId: value.conversationId, token: value.token }
        : null;
    } catch {
      return null;
    }
  },
  save(widgetId: string, session: Session) {
    try {
      window.localStorage.setItem(storageKey(widgetId), JSON.stringify(session));
    } catch {}
  },
  clear(widgetId: string) {
    try {
      window.localStorage.removeItem(storageKey(widgetId));
    } catch {}
  },
};

/** Messages by id, oldest first: answers to posts and polls overlap, and each message is shown once. */
export function mergeMessages(current: ChatMessage[], incoming: ChatMessage[]): ChatMessage[] {
  if (incoming.length === 0) return current;
  const byId = new Map(current.map((message) => [message.id, message]));
  for (const message of incoming) byId.set(message.id, message);
  return [...byId.values()].sort((a, b) => a.seq - b.seq);
}
