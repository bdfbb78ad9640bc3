import "server-only";
import type { Prisma } from "@/lib/db/generated/client";

/** Work that belongs to a new account, run inside the sign-up transaction. */
export async function onAccountCreated(tx: Prisma.TransactionClient, accountId: string): Promise<void> {
  void tx;
  void accountId;
}
