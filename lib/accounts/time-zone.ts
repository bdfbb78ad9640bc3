import "server-only";
import { recordAudit, type AuditActor } from "@/lib/audit/record";
import { db } from "@/lib/platform/db/client";
import { isKnownTimeZone } from "@/lib/platform/format/zoned-time";

/*
 * Settings → Account: the account's time zone, which the dashboard shows times in and recurring series
 * repeat in (docs/recurring-events.md). Events keep their instants; each series repeats at its first
 * start's wall-clock time in the new zone, and its removed occurrences move with it (the database's
 * triggers on accounts.timezone). The change and its audit entry commit together.
 */

/** The longest IANA zone name accepted (sign-up's limit). */
const MAX_ZONE_LENGTH = 64;

/** The zones offered: every one this server knows, UTC, and the current one. */
export function timeZoneChoices(current: string): Array<[string, string]> {
  const zones = new Set([...Intl.supportedValuesOf("timeZone"), "UTC", current]);
  return [...zones].sort().map((zone) => [zone, zone.replaceAll("_", " ")]);
}

export type TimeZoneChange = { ok: true; changed: boolean; timeZone: string } | { ok: false; message: string };

export async function changeTimeZone(accountId: string, actor: AuditActor, timeZone: string): Promise<TimeZoneChange> {
  if (timeZone.length > MAX_ZONE_LENGTH || !isKnownTimeZone(timeZone)) {
    return { ok: false, message: "Choose a time zone from the list." };
  }
  return db.prisma.$transaction(
    async (tx) => {
      const [account] = await tx.$queryRaw<Array<{ name: string; timezone: string }>>`
      SELECT name, timezone FROM accounts WHERE id = ${accountId}::uuid FOR UPDATE`;
      if (!account) return { ok: false as const, message: "The account does not exist." };
      if (account.timezone === timeZone) return { ok: true as const, changed: false, timeZone };
      await tx.account.update({ where: { id: accountId }, data: { timezone: timeZone } });
      await recordAudit(
        {
          accountId,
          actor,
          action: "account.timezone_changed",
          target: { type: "account", id: accountId, label: account.name },
          metadata: { from: account.timezone, to: timeZone },
        },
        tx,
      );
      return { ok: true as const, changed: true, timeZone };
    },
    // The triggers rewrite every series of the account (up to the plan's 100,000 events).
    { timeout: 60_000 },
  );
}
