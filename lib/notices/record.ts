import "server-only";
import type { Prisma } from "@/lib/platform/db/generated/client";
import type { NoticeKind } from "./model";

/**
 * Opens a notice on the caller's transaction, so it commits with the change it reports. A problem that
 * already has an open notice keeps that one.
 */
export async function recordNotice(
  tx: Prisma.TransactionClient,
  notice: { accountId: string; kind: NoticeKind; targetId: string; targetLabel: string; message: string },
): Promise<void> {
  await tx.$executeRaw`INSERT INTO account_notices (account_id, kind, target_id, target_label, message)
    VALUES (${notice.accountId}::uuid, ${notice.kind}, ${notice.targetId}, ${notice.targetLabel}, ${notice.message})
    ON CONFLICT (account_id, kind, target_id) WHERE opened_at IS NULL DO NOTHING`;
}
