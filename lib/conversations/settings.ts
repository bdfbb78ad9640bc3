import "server-only";
import { recordAuditSql } from "@/lib/audit/record";
import { inTransaction } from "@/lib/platform/db/transaction";
import { newPublicId } from "@/lib/platform/ids";
import { fail, type Failure } from "@/lib/platform/result";
import {
  checkWidgetSettings,
  type CheckedWidgetSettings,
  type SettingsProblems,
  type WidgetSettingsForm,
} from "./settings-input";
import type { WidgetColumns } from "./widget";

/*
 * Saving Settings → Chat widget. Who may save is the server action's rule (owners and admins); this
 * module checks the values, stores them and records the change in the audit log in one transaction,
 * so the log never names a change that did not happen.
 */

export type SaveWidgetSettingsResult =
  | { ok: true; settings: CheckedWidgetSettings; changed: (keyof CheckedWidgetSettings)[] }
  | (Failure<"invalid_request"> & { problems: SettingsProblems });

const sameList = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((value, index) => value === b[index]);

export async function saveWidgetSettings(
  context: { accountId: string; actorUserId: string | null },
  form: WidgetSettingsForm,
): Promise<SaveWidgetSettingsResult> {
  const checked = checkWidgetSettings(form);
  if (!checked.ok) {
    return { ...fail("invalid_request", "Check the fields marked below."), problems: checked.problems };
  }
  const { settings } = checked;

  return inTransaction(async (client) => {
    await client.query(
      "INSERT INTO chat_widgets (id, account_id) VALUES ($1, $2) ON CONFLICT (account_id) DO NOTHING",
      [newPublicId("widget"), context.accountId],
    );
    // Locked, so two saves at once each compare against what the other stored.
    const { rows } = await client.query<WidgetColumns>(
      `SELECT id, assistant_name, greeting, allowed_origins, business_name, logo_url, brand_color, reply_time
       FROM chat_widgets WHERE account_id = $1 FOR UPDATE`,
      [context.accountId],
    );
    const before = rows[0]!;
    const changed: (keyof CheckedWidgetSettings)[] = [];
    if (before.assistant_name !== settings.assistantName) changed.push("assistantName");
    if (before.greeting !== settings.greeting) changed.push("greeting");
    if (!sameList(before.allowed_origins ?? [], settings.allowedOrigins)) changed.push("allowedOrigins");
    if (before.business_name !== settings.businessName) changed.push("businessName");
    if (before.logo_url !== settings.logoUrl) changed.push("logoUrl");
    if (before.brand_color !== settings.brandColor) changed.push("brandColor");
    if (before.reply_time !== settings.replyTime) changed.push("replyTime");
    if (changed.length === 0) return { ok: true, settings, changed };

    await client.query(
      `UPDATE chat_widgets SET assistant_name = $2, greeting = $3, allowed_origins = $4, business_name = $5,
         logo_url = $6, brand_color = $7, reply_time = $8, updated_at = now()
       WHERE account_id = $1`,
      [
        context.accountId,
        settings.assistantName,
        settings.greeting,
        settings.allowedOrigins,
        settings.businessName,
        settings.logoUrl,
        settings.brandColor,
        settings.replyTime,
      ],
    );
    await recordAuditSql(client, {
      accountId: context.accountId,
      actorUserId: context.actorUserId,
      action: "chat_widget.updated",
      target: { type: "chat_widget", id: before.id, label: "Chat widget" },
      metadata: {
        changed,
        ...(changed.includes("assistantName") ? { from: before.assistant_name, to: settings.assistantName } : {}),
        ...(changed.includes("allowedOrigins") ? { allowedOrigins: settings.allowedOrigins } : {}),
      },
    });
    return { ok: true, settings, changed };
  });
}
