import "server-only";
import { takePoint } from "@/lib/auth/rate-limit";
import { errorResponse } from "@/lib/platform/http/api-error";
import { rateLimitKeyForIp } from "@/lib/platform/http/client-ip";

/*
 * Throttles of the anonymous chat endpoints (docs/chat-widget.md, "Limits"). Every write (a first
 * message, a message, "Talk to a person", contact details) takes a point per client IP and then one per
 * widget, before anything is read from the body or stored, with the same atomic PostgreSQL counter as
 * sign-in: a parallel burst cannot slip past the limit, and nothing beyond it is stored. The widget's
 * point is taken only once the IP's is granted, so one address cannot use up a widget's whole budget.
 * An IPv6 client counts as its /64 (rateLimitKeyForIp): it can take a fresh address from it at will.
 * A widget has two budgets: starting conversations needs no token, so anyone with enough addresses can
 * use that one up, but not the one for writes in existing conversations, which only their visitor token
 * reaches: a flood of new conversations cannot silence the visitors already talking.
 * Requests to an existing conversation take their points in the statement that checks the visitor
 * (visitor-access.ts); starting a conversation takes them here.
 * Limits are read per call so an operator (or the end-to-end server) can tune them.
 */

function limitFromEnv(name: string, fallback: number): number {
  const value = Number(process.env[name]);
  return Number.isInteger(value) && value > 0 ? value : fallback;
}

export function chatLimits() {
  return {
    messagesPerIp: { limit: limitFromEnv("CHAT_MESSAGES_PER_IP_PER_MINUTE", 20), windowSeconds: 60 },
    // Writes in existing conversations only: starting one draws on conversationsPerWidget.
    messagesPerWidget: { limit: limitFromEnv("CHAT_MESSAGES_PER_WIDGET_PER_MINUTE", 600), windowSeconds: 60 },
    conversationsPerIp: { limit: limitFromEnv("CHAT_CONVERSATIONS_PER_IP_PER_HOUR", 30), windowSeconds: 60 * 60 },
    conversationsPerWidget: { limit: limitFromEnv("CHAT_CONVERSATIONS_PER_WIDGET_PER_MINUTE", 120), windowSeconds: 60 },
    // A tab polls every 1.5 s (40 a minute); this leaves room for a dozen open tabs behind one address.
    pollsPerIp: { limit: limitFromEnv("CHAT_POLLS_PER_IP_PER_MINUTE", 600), windowSeconds: 60 },
  };
}

/** The counter of one kind of request from one client (an IPv4 address or an IPv6 /64). */
export const chatIpKey = (counter: "start" | "msg" | "poll", ip: string) =>
  `chat-${counter}-ip:${rateLimitKeyForIp(ip)}`;

/** The widget's counter of writes in its existing conversations. */
export const chatWidgetMessagesKey = (widgetId: string) => `chat-msg-widget:${widgetId}`;

export type Throttle = { ok: true } | { ok: false; response: Response };

/** The 429 of every chat throttle, with Retry-After. */
export function throttledResponse(retryAfterSeconds: number): Response {
  return errorResponse(429, "rate_limited", `Too many messages. Wait ${retryAfterSeconds} seconds and try again.`, {
    headers: { "Retry-After": String(retryAfterSeconds) },
  });
}

function refused(retryAfterSeconds: number): Throttle {
  return { ok: false, response: throttledResponse(retryAfterSeconds) };
}

async function take(key: string, rule: { limit: number; windowSeconds: number }): Promise<Throttle> {
  const hit = await takePoint(key, rule.limit, rule.windowSeconds);
  return hit.allowed ? { ok: true } : refused(hit.retryAfterSeconds);
}

/**
 * A write by a visitor, per IP (a new conversation also counts against the IP's hourly starts). Taken
 * before the widget is looked up, so a flood of made-up widget ids is throttled too.
 */
export async function throttleVisitorWrite(
  ip: string,
  options: { startsConversation?: boolean } = {},
): Promise<Throttle> {
  const limits = chatLimits();
  if (options.startsConversation) {
    const started = await take(chatIpKey("start", ip), limits.conversationsPerIp);
    if (!started.ok) return started;
  }
  return take(chatIpKey("msg", ip), limits.messagesPerIp);
}

/** A new conversation against its widget's budget for starts, once the widget is known to exist. */
export async function throttleWidgetStart(widgetId: string): Promise<Throttle> {
  return take(`chat-start-widget:${widgetId}`, chatLimits().conversationsPerWidget);
}
