import "server-only";
import type { Prisma } from "@/lib/platform/db/generated/client";
import { createInitialSource } from "@/lib/events-webhook/sources";
import { createDefaultPipeline } from "@/lib/leads/pipeline";

/** Work that belongs to a new account, run inside the sign-up transaction. */
export async function onAccountCreated(tx: Prisma.TransactionClient, accountId: string): Promise<void> {
  // A new account has one webhook source ready (docs/webhook.md, "Sources and secrets").
  await createInitialSource(tx, accountId);
  // Leads need a pipeline: new, contacted, qualified, won, lost.
  await createDefaultPipeline(tx, accountId);
}
