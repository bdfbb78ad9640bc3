import { db } from "@/lib/platform/db/client";

/** The account's events as stored, soonest first: what an import or an edit really wrote. */
export const eventsOf = (accountId: string) =>
  db.prisma.event.findMany({ where: { accountId }, orderBy: { startsAt: "asc" } });
