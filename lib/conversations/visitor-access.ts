import "server-only";
import { db } from "@/lib/platform/db/client";
import { placeholders, statement } from "@/lib/platform/db/sql";
import { CLOCK_CTE, fixedWindowCounterCte } from "@/lib/platform/http/rate-limit";
import { fail, type Failure } from "@/lib/platform/result";
import type { Conversation } from "./model";
import { conversationColumnsOf, toConversation, type ConversationRow } from "./sql";
import { hashVisitorToken } from "./visitor";
import { chatIpKey, chatLimits, chatWidgetMessagesKey } from "./visitor-limits";
import { toWidget, WIDGET_FIELDS, WIDGET_FROM, type ChatWidget, type WidgetRow } from "./widget";

/*
 * A visitor's request to an existing conversation (a message, a poll, "Talk to a person", contact
 * details), checked in ONE statement: the client IP's point, the widget and the conversation with its
 * token, and, for a write that passes both, the widget's point (docs/chat-widget.md, "Limits"). Every
 * visitor request starts here, and a round trip to the database is the largest part of its cost.
 * The rules are those of visitor-limits.ts: the IP's point is taken whatever the ids and the token, so a
 * flood of made-up ids is throttled too; the widget's only when the IP's is granted and the token is
 * right, so neither one address nor a guesser can use up a widget's budget. A wrong widget, conversation
 * or token is the same 404.
 */

export type VisitorAccess =
  | { ok: true; widget: ChatWidget; conversation: Conversation }
  | (Failure<"rate_limited"> & { retryAfterSeconds: number })
  | Failure<"not_found">;

const NOT_FOUND = fail("not_found", "This conversation does not exist.");
const throttled = (resetMs: string | null) => {
  const retryAfterSeconds = Math.max(1, Math.ceil(Number(resetMs ?? 0) / 1000));
  return {
    ...fail("rate_limited", `Too many requests; try again in ${retryAfterSeconds} seconds.`),
    retryAfterSeconds,
  };
};

type AccessValues = {
  ipKey: string;
  ipWindowMs: number;
  ipLimit: number;
  widgetId: string;
  conversationId: string;
  tokenHash: Buffer | null;
  widgetKey: string | null;
  widgetWindowMs: number;
};
const p = placeholders<AccessValues>();

// A named statement is parsed and planned once per connection: every lookup in it is by key, so the
// generic plan is the right one, and planning this statement took longer than running it.
const ACCESS = statement<AccessValues>(`WITH ${CLOCK_CTE},
  ${fixedWindowCounterCte(`${p.ipKey}::text`, "clock", `${p.ipWindowMs}::bigint`, "ip")},
  found AS (
    SELECT (SELECT to_json(fields) FROM (SELECT ${WIDGET_FIELDS}) AS fields) AS widget, ${conversationColumnsOf("c")}
    FROM ${WIDGET_FROM} JOIN conversations c ON c.widget_id = w.id AND c.account_id = w.account_id
    WHERE w.id = ${p.widgetId} AND c.id = ${p.conversationId} AND c.visitor_token_hash = ${p.tokenHash}::bytea),
  ${fixedWindowCounterCte(
    `${p.widgetKey}::text`,
    `clock WHERE ${p.widgetKey}::text IS NOT NULL AND (SELECT points FROM ip) <= ${p.ipLimit}::int
      AND EXISTS (SELECT 1 FROM found)`,
    `${p.widgetWindowMs}::bigint`,
    "wd",
  )}
  SELECT ip.points AS ip_points, ip.expire - clock.ms AS ip_reset_ms, wd.points AS widget_points,
    wd.expire - clock.ms AS widget_reset_ms, found.*
  FROM clock CROSS JOIN ip LEFT JOIN wd ON true LEFT JOIN found ON true`);

type AccessRow = Partial<ConversationRow> & {
  ip_points: number;
  ip_reset_ms: string;
  widget_points: number | null;
  widget_reset_ms: string | null;
  widget: WidgetRow | null;
};

export async function checkVisitorAccess(request: {
  ip: string;
  widgetId: string;
  conversationId: string;
  token: string | null;
  kind: "write" | "poll";
}): Promise<VisitorAccess> {
  const limits = chatLimits();
  const perIp =
    request.kind === "write"
      ? { key: chatIpKey("msg", request.ip), rule: limits.messagesPerIp }
      : { key: chatIpKey("poll", request.ip), rule: limits.pollsPerIp };
  // The widget's budget for existing conversations, which starting new ones does not touch.
  const widgetKey = request.kind === "write" ? chatWidgetMessagesKey(request.widgetId) : null;
  const values = ACCESS.values({
    ipKey: perIp.key,
    ipWindowMs: perIp.rule.windowSeconds * 1000,
    ipLimit: perIp.rule.limit,
    widgetId: request.widgetId,
    conversationId: request.conversationId,
    tokenHash: request.token ? hashVisitorToken(request.token) : null,
    widgetKey,
    widgetWindowMs: limits.messagesPerWidget.windowSeconds * 1000,
  });
  const { rows } = await db.pool.query<AccessRow>({ name: "chat-visitor-access", text: ACCESS.text, values });
  const row = rows[0]!;
  if (row.ip_points > perIp.rule.limit) return throttled(row.ip_reset_ms);
  if (!row.widget) return NOT_FOUND;
  if (row.widget_points !== null && row.widget_points > limits.messagesPerWidget.limit) {
    return throttled(row.widget_reset_ms);
  }
  return { ok: true, widget: toWidget(row.widget), conversation: toConversation(row as ConversationRow) };
}
