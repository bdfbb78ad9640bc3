import "server-only";
import { isDatabaseUnavailable } from "@/lib/platform/db/client";
import { errorResponse, internalErrorResponse, jsonResponse, unavailableResponse } from "@/lib/platform/http/api-error";
import { CLIENT_IP_HEADER } from "@/lib/platform/http/client-ip";
import { errorFields, logger } from "@/lib/platform/observability/log";
import { inSpan } from "@/lib/platform/observability/tracing";
import { parseJsonObject, readRawBody } from "@/lib/api/body";
import { table, type PublicRoute } from "@/lib/platform/http/route-table";
import { leaveContact } from "./contact";
import { CONVERSATION_CLOSED, type Conversation, type Message, type VisitorResult } from "./model";
import { listMessages } from "./read";
import { checkMessageText } from "./text";
import { postVisitorMessage, requestHandoff, startConversation } from "./visitor";
import { sessionLocale, sessionUrl, sessionUserAgent, parseAfter } from "./visitor-input";
import { checkVisitorAccess } from "./visitor-access";
import { throttledResponse, throttleVisitorWrite, throttleWidgetStart } from "./visitor-limits";
import { findWidget, type ChatWidget } from "./widget";

/*
 * The chat page's endpoints under /api/chat/{widget_id}/… (docs/chat-widget.md, "Endpoints"). Anonymous:
 * the visitor token (header X-Visitor-Token, never in a URL, where logs and referrers would keep it) is
 * the only proof of owning a conversation. An unknown widget, a wrong token and another widget's
 * conversation all get the same 404, so nothing confirms that an id exists. Each write is throttled
 * before its body is read or anything is stored.
 */

export const VISITOR_TOKEN_HEADER = "X-Visitor-Token";
/** A 4,000-character message is at most 16 KB of UTF-8; the rest is room for JSON escapes. */
export const MAX_VISITOR_BODY_BYTES = 32 * 1024;
/** Messages per poll; a visitor who was away gets the rest with the next poll (`has_more`). */
export const POLL_PAGE_SIZE = 100;

type WidgetParams = { params: Promise<{ widgetId: string }> };
type ConversationParams = { params: Promise<{ widgetId: string; conversationId: string }> };

const notFound = () => errorResponse(404, "not_found", "This chat or conversation does not exist.");
const closed = () => errorResponse(409, CONVERSATION_CLOSED.code, CONVERSATION_CLOSED.message);
const invalid = (message: string, details: { field: string; message: string; code?: string }[]) =>
  errorResponse(400, "invalid_request", message, { details });

const clientIp = (request: Request) => request.headers.get(CLIENT_IP_HEADER)?.trim() || "local";

/** What the visitor sees of a conversation: not the session data or the lead, which are the team's. */
export const visitorConversation = (conversation: Conversation) => ({
  id: conversation.id,
  status: conversation.status,
  // Left means claimed: an email that belongs to a lead stays unlinked (lib/conversations/contact.ts).
  contact_left: conversation.visitorEmail !== null || conversation.leadId !== null,
});

/** `seq` is the polling cursor: the next poll asks for messages after the highest one seen. */
export const visitorMessage = (message: Message) => ({
  id: message.id,
  seq: message.seq,
  author: message.author,
  author_name: message.authorName,
  text: message.text,
  created_at: message.createdAt.toISOString(),
});

type Parsed<T> = { ok: true; value: T } | { ok: false; response: Response };

async function readJson(request: Request): Promise<Parsed<Record<string, unknown>>> {
  if (!/^application\/json\s*(?:;|$)/i.test(request.headers.get("content-type") ?? "")) {
    return {
      ok: false,
      response: errorResponse(415, "unsupported_media_type", "Send the body as JSON (Content-Type: application/json)."),
    };
  }
  const raw = await readRawBody(request, MAX_VISITOR_BODY_BYTES);
  if (!raw.ok) return raw;
  const parsed = parseJsonObject(raw.bytes);
  return parsed.ok ? { ok: true, value: parsed.value as Record<string, unknown> } : parsed;
}

function messageText(value: unknown): Parsed<string> {
  const checked = checkMessageText(value);
  if (checked.ok) return { ok: true, value: checked.text };
  const { code, message } = checked;
  return { ok: false, response: invalid(message, [{ field: "text", code, message }]) };
}

/** Database outages are a retryable 503; anything else is logged by name and message and answered 500. */
function visitorRoute<P>(handler: (request: Request, params: P) => Promise<Response>) {
  return async (request: Request, context: { params: Promise<P> }): Promise<Response> => {
    try {
      return await handler(request, await context.params);
    } catch (error) {
      if (isDatabaseUnavailable(error)) return unavailableResponse();
      logger().error(errorFields(error), "chat: unexpected error");
      return internalErrorResponse();
    }
  };
}

type Visitor = { widget: ChatWidget; conversation: Conversation };

/** Throttles, the widget, the conversation and its token in one statement; a refusal is the response to send. */
async function visitorOf(
  request: Request,
  params: Awaited<ConversationParams["params"]>,
  kind: "write" | "poll",
): Promise<Parsed<Visitor>> {
  const access = await inSpan("chat.access", {}, () =>
    checkVisitorAccess({
      ip: clientIp(request),
      widgetId: params.widgetId,
      conversationId: params.conversationId,
      token: request.headers.get(VISITOR_TOKEN_HEADER),
      kind,
    }),
  );
  if (!access.ok)
    return {
      ok: false,
      response: access.code === "rate_limited" ? throttledResponse(access.retryAfterSeconds) : notFound(),
    };
  const { widget, conversation } = access;
  // Nothing can be written to a closed conversation; the visitor is offered a new one.
  if (kind === "write" && conversation.status === "closed") return { ok: false, response: closed() };
  return { ok: true, value: { widget, conversation } };
}

/** A write to the conversation that carries a JSON body: the access check, then the body. */
async function visitorWithBody(
  request: Request,
  params: Awaited<ConversationParams["params"]>,
): Promise<Parsed<Visitor & { body: Record<string, unknown> }>> {
  const visitor = await visitorOf(request, params, "write");
  if (!visitor.ok) return visitor;
  const body = await readJson(request);
  if (!body.ok) return body;
  return { ok: true, value: { ...visitor.value, body: body.value } };
}

function answer(result: VisitorResult, status: number): Response {
  if (!result.ok) return closed();
  return jsonResponse(
    { conversation: visitorConversation(result.conversation), messages: result.messages.map(visitorMessage) },
    { status },
  );
}

/**
 * POST /api/chat/{widget_id}/conversations — starts a conversation with its first message (`text`) or a
 * request for a person (`handoff: true`), never empty, so merely opening the chat stores nothing.
 */
export const startConversationRoute = visitorRoute<Awaited<WidgetParams["params"]>>(async (request, params) => {
  const perIp = await throttleVisitorWrite(clientIp(request), { startsConversation: true });
  if (!perIp.ok) return perIp.response;
  const widget = await findWidget(params.widgetId);
  if (!widget) return notFound();
  const perWidget = await throttleWidgetStart(widget.id);
  if (!perWidget.ok) return perWidget.response;
  const body = await readJson(request);
  if (!body.ok) return body.response;
  const { text: rawText, handoff, page_url: pageUrl, referrer, locale } = body.value;
  if (handoff !== undefined && typeof handoff !== "boolean")
    return invalid("handoff must be true or false.", [{ field: "handoff", message: "Must be a boolean." }]);
  const wantsPerson = handoff === true;
  if ((rawText === undefined || rawText === null) && !wantsPerson) {
    return invalid("Write a message or ask for a person.", [
      { field: "text", code: "empty", message: "Write a message." },
    ]);
  }
  const text = rawText === undefined || rawText === null ? null : messageText(rawText);
  if (text && !text.ok) return text.response;

  const started = await startConversation(widget, {
    pageUrl: sessionUrl(pageUrl),
    referrer: sessionUrl(referrer),
    userAgent: sessionUserAgent(request.headers.get("user-agent")),
    locale: sessionLocale(locale) ?? sessionLocale(request.headers.get("accept-language")),
  });
  let conversation = started.conversation;
  const messages = [...started.messages];
  for (const step of [
    text ? (c: Conversation) => postVisitorMessage(widget, c, text.value) : null,
    wantsPerson ? (c: Conversation) => requestHandoff(widget, c) : null,
  ]) {
    if (!step) continue;
    const result = await step(conversation);
    if (!result.ok) return closed();
    conversation = result.conversation;
    messages.push(...result.messages);
  }
  return jsonResponse(
    {
      conversation: visitorConversation(conversation),
      visitor_token: started.visitorToken,
      messages: messages.map(visitorMessage),
    },
    { status: 201 },
  );
});

/** GET /api/chat/{widget_id}/conversations/{id}/messages?after=<seq> — the status and the messages after seq. */
export const pollMessagesRoute = visitorRoute<Awaited<ConversationParams["params"]>>(async (request, params) => {
  const visitor = await visitorOf(request, params, "poll");
  if (!visitor.ok) return visitor.response;
  const after = parseAfter(new URL(request.url).searchParams.get("after"));
  if (after === null)
    return invalid("after must be a message seq (a non-negative integer).", [
      { field: "after", message: "Must be a non-negative integer." },
    ]);
  const { widget, conversation } = visitor.value;
  const page = await listMessages(widget.accountId, conversation.id, { afterSeq: after, limit: POLL_PAGE_SIZE });
  return jsonResponse({
    conversation: visitorConversation(conversation),
    messages: page.data.map(visitorMessage),
    has_more: page.hasMore,
  });
});

/** POST /api/chat/{widget_id}/conversations/{id}/messages {"text"} — the visitor's message and any reply to it. */
export const postMessageRoute = visitorRoute<Awaited<ConversationParams["params"]>>(async (request, params) => {
  const visitor = await visitorWithBody(request, params);
  if (!visitor.ok) return visitor.response;
  const { widget, conversation, body } = visitor.value;
  const text = messageText(body.text);
  if (!text.ok) return text.response;
  return answer(await inSpan("chat.reply", {}, () => postVisitorMessage(widget, conversation, text.value)), 201);
});

/** POST /api/chat/{widget_id}/conversations/{id}/handoff — "Talk to a person"; repeating it changes nothing. */
export const handoffRoute = visitorRoute<Awaited<ConversationParams["params"]>>(async (request, params) => {
  const visitor = await visitorOf(request, params, "write");
  if (!visitor.ok) return visitor.response;
  const { widget, conversation } = visitor.value;
  return answer(await requestHandoff(widget, conversation), 200);
});

/** POST /api/chat/{widget_id}/conversations/{id}/contact {"name", "email"} — a claim (conversations/contact.ts). */
export const contactRoute = visitorRoute<Awaited<ConversationParams["params"]>>(async (request, params) => {
  const visitor = await visitorWithBody(request, params);
  if (!visitor.ok) return visitor.response;
  const { widget, conversation, body } = visitor.value;
  const result = await leaveContact(widget, conversation, { name: body.name, email: body.email });
  if (!result.ok && result.code === "conversation_closed") return closed();
  if (!result.ok) return invalid(result.message, result.details);
  return jsonResponse({
    conversation: visitorConversation(result.conversation),
    messages: result.messages.map(visitorMessage),
  });
});

/**
 * Every chat endpoint, once: the app/api/chat route files export these handlers (what `next dev`
 * serves), and the production server's fast path (lib/server/fast-routes.ts) serves the same table.
 */
export const CHAT_ROUTES: readonly PublicRoute[] = [
  table("/api/chat/{widgetId}/conversations", { POST: startConversationRoute }),
  table("/api/chat/{widgetId}/conversations/{conversationId}/messages", {
    GET: pollMessagesRoute,
    POST: postMessageRoute,
  }),
  table("/api/chat/{widgetId}/conversations/{conversationId}/handoff", { POST: handoffRoute }),
  table("/api/chat/{widgetId}/conversations/{conversationId}/contact", { POST: contactRoute }),
];
