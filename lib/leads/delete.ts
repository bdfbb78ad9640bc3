import "server-only";
import { recordAuditSql } from "@/lib/audit/record";
import { isPublicId } from "@/lib/platform/ids";
import type { Failure } from "@/lib/platform/result";
import { leadDisplayName } from "./display";
import { LEAD_NOT_FOUND, type LeadContext } from "./model";
import { inTransaction } from "./sql";

/** Deletes a lead of the account; the delete and its audit entry commit together. */
export async function deleteLead(
  context: LeadContext,
  id: string,
): Promise<{ ok: true; name: string } | Failure<"not_found">> {
  if (!isPublicId(id, "lead")) return LEAD_NOT_FOUND;
  return inTransaction(async (client) => {
    const { rows } = await client.query<{ name: string | null; email: string | null; phone: string | null }>(
      "DELETE FROM leads WHERE account_id = $1 AND id = $2 RETURNING name, email, phone",
      [context.accountId, id],
    );
    if (!rows[0]) return LEAD_NOT_FOUND;
    const name = leadDisplayName(rows[0]);
    await recordAuditSql(client, {
      accountId: context.accountId,
      actorUserId: context.actor.type === "user" ? context.actor.userId : null,
      action: "lead.deleted",
      target: { type: "lead", id, label: name },
      metadata: rows[0].email ? { email: rows[0].email } : {},
    });
    return { ok: true, name } as const;
  });
}
