import "server-only";
import { db } from "@/lib/platform/db/client";
import { newPublicId, isPublicId } from "@/lib/platform/ids";

/*
 * An account's chat widget: created on first use, so every account has one without a migration step.
 * The widget id is public (it is in the embed snippet); looking it up yields the account and its time
 * zone, which is all the visitor side ever learns about the account.
 */

export type ChatWidget = {
  id: string;
  accountId: string;
  accountName: string;
  timezone: string;
  assistantName: string;
  greeting: string;
  allowedOrigins: string[];
  /** Branding (docs/chat-widget.md, "Branding"); "" when not set. */
  businessName: string;
  logoUrl: string;
  brandColor: string;
  /** When the team usually answers, told to a visitor who asks for a person; "" when not set. */
  replyTime: string;
};

/** A chat_widgets row's own columns (the settings' save reads them alone). */
export type WidgetColumns = {
  id: string;
  assistant_name: string;
  greeting: string;
  allowed_origins: string[] | null;
  business_name: string;
  logo_url: string;
  brand_color: string;
  reply_time: string;
};

export type WidgetRow = WidgetColumns & { account_id: string; account_name: string; timezone: string };

/** The widget's fields over `chat_widgets w JOIN accounts a`, for this module and the visitor's check. */
export const WIDGET_FIELDS =
  "w.id, w.account_id, a.name AS account_name, a.timezone, w.assistant_name, w.greeting, w.allowed_origins, " +
  "w.business_name, w.logo_url, w.brand_color, w.reply_time";
export const WIDGET_FROM = "chat_widgets w JOIN accounts a ON a.id = w.account_id";

const SELECT = `SELECT ${WIDGET_FIELDS} FROM ${WIDGET_FROM}`;

export function toWidget(row: WidgetRow): ChatWidget {
  return {
    id: row.id,
    accountId: row.account_id,
    accountName: row.account_name,
    timezone: row.timezone,
    assistantName: row.assistant_name,
    greeting: row.greeting,
    allowedOrigins: row.allowed_origins ?? [],
    businessName: row.business_name,
    logoUrl: row.logo_url,
    brandColor: row.brand_color,
    replyTime: row.reply_time,
  };
}

export async function findWidget(widgetId: string): Promise<ChatWidget | null> {
  if (!isPublicId(widgetId, "widget")) return null;
  // The id is indexed, not unique on its own (docs/scaling.md): two rows are answered as none.
  const { rows } = await db.pool.query<WidgetRow>(`${SELECT} WHERE w.id = $1 LIMIT 2`, [widgetId]);
  return rows.length === 1 ? toWidget(rows[0]) : null;
}

export async function getOrCreateWidget(accountId: string): Promise<ChatWidget> {
  await db.pool.query(`INSERT INTO chat_widgets (id, account_id) VALUES ($1, $2) ON CONFLICT (account_id) DO NOTHING`, [
    newPublicId("widget"),
    accountId,
  ]);
  const { rows } = await db.pool.query<WidgetRow>(`${SELECT} WHERE w.account_id = $1`, [accountId]);
  return toWidget(rows[0]!);
}
