import crypto from "node:crypto";
import {
  contactRoute,
  handoffRoute,
  pollMessagesRoute,
  postMessageRoute,
  startConversationRoute,
} from "@/lib/conversations/visitor-http";
import { getOrCreateWidget } from "@/lib/conversations/widget";
import { createAccount } from "./factories";

/* Calls the chat page's route exports the way Next does, from a client IP of the test's choosing. */

export type VisitorMessage = {
  id: string;
  seq: number;
  author: string;
  author_name: string | null;
  text: string;
  created_at: string;
};
export type VisitorAnswer = {
  conversation: { id: string; status: string; contact_left: boolean };
  visitor_token?: string;
  messages: VisitorMessage[];
  has_more?: boolean;
};

/** A fresh address per test, so the shared rate-limit counters of other tests never interfere. */
export const randomIp = () => `10.${crypto.randomInt(256)}.${crypto.randomInt(256)}.${crypto.randomInt(1, 255)}`;

type Call = { ip: string; token?: string | null; body?: unknown; contentType?: string | null; query?: string };

function request(method: string, path: string, call: Call): Request {
  const headers: Record<string, string> = { "x-client-ip": call.ip, "user-agent": "VisitorTest/1.0" };
  if (call.token) headers["X-Visitor-Token"] = call.token;
  if (call.body !== undefined && call.contentType !== null)
    headers["Content-Type"] = call.contentType ?? "application/json";
  const body =
    call.body === undefined
      ? undefined
      : typeof call.body === "string" || call.body instanceof Uint8Array
        ? call.body
        : JSON.stringify(call.body);
  return new Request(`http://localhost/api/chat${path}${call.query ?? ""}`, {
    method,
    headers,
    body: body as BodyInit | undefined,
  });
}

type ConversationParams = { params: Promise<{ widgetId: string; conversationId: string }> };

/** A visitor's call to one of a conversation's endpoints: `POST|GET /{widgetId}/conversations/{id}/{action}`. */
const onConversation =
  (route: (request: Request, context: ConversationParams) => Promise<Response>, method: string, action: string) =>
  (widgetId: string, conversationId: string, call: Call) =>
    route(request(method, `/${widgetId}/conversations/${conversationId}/${action}`, call), {
      params: Promise.resolve({ widgetId, conversationId }),
    });

export const visitor = {
  start: (widgetId: string, call: Call) =>
    startConversationRoute(request("POST", `/${widgetId}/conversations`, call), {
      params: Promise.resolve({ widgetId }),
    }),
  send: onConversation(postMessageRoute, "POST", "messages"),
  poll: onConversation(pollMessagesRoute, "GET", "messages"),
  handoff: onConversation(handoffRoute, "POST", "handoff"),
  contact: onConversation(contactRoute, "POST", "contact"),
};

export const json = async (response: Response) => (await response.json()) as VisitorAnswer;

/** An account's widget and a conversation started from it by a visitor at `ip`. */
export async function startedChat(text = "Hello there") {
  const { accountId } = await createAccount();
  const widget = await getOrCreateWidget(accountId);
  const ip = randomIp();
  const response = await visitor.start(widget.id, { ip, body: { text } });
  if (response.status !== 201) throw new Error(`start answered ${response.status}`);
  const body = await json(response);
  return { accountId, widget, ip, conversationId: body.conversation.id, token: body.visitor_token!, started: body };
}
