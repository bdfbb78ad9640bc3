import "server-only";
import { db } from "@/lib/platform/db/client";
import { leadDisplayName } from "@/lib/leads/display";
import type { Conversation } from "./model";

/*
 * The inbox's note on a claimed contact: the lead whose email is the one the visitor left, when the
 * conversation is not linked to it. The claim alone never links them (lib/conversations/contact.ts);
 * an agent does ("Link to lead", lib/conversations/link-lead.ts). Read when shown, so a lead made,
 * edited or deleted since the visitor wrote is seen as it is now.
 */

export type MatchingLead = { id: string; name: string };

type Claim = Pick<Conversation, "id" | "leadId" | "visitorEmail">;

/** By conversation id; conversations without a claim or already linked to the matching lead are absent. */
export async function leadsMatchingClaims(
  accountId: string,
  conversations: Claim[],
): Promise<Map<string, MatchingLead>> {
  const claims = conversations.filter((conversation) => conversation.visitorEmail);
  if (claims.length === 0) return new Map();
  // One probe of the per-account unique email index per claim (both sides store emails lower-cased).
  type Row = { conversation_id: string; id: string; name: string | null; email: string | null; phone: string | null };
  const { rows } = await db.pool.query<Row>(
    `SELECT c.id AS conversation_id, l.id, l.name, l.email, l.phone
     FROM unnest($2::text[], $3::text[], $4::text[]) AS c(id, email, lead_id)
     JOIN leads l ON l.account_id = $1 AND l.email IS NOT NULL AND l.email = c.email
     WHERE l.id IS DISTINCT FROM c.lead_id`,
    [
      accountId,
      claims.map((claim) => claim.id),
      claims.map((claim) => claim.visitorEmail),
      claims.map((claim) => claim.leadId),
    ],
  );
  return new Map(rows.map((row) => [row.conversation_id, { id: row.id, name: leadDisplayName(row) }]));
}
