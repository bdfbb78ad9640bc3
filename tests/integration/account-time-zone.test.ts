import { beforeEach, describe, expect, it } from "vitest";
import { changeTimeZoneAction } from "@/app/(dashboard)/settings/account/actions";
import AccountSettingsPage from "@/app/(dashboard)/settings/account/page";
import { MANAGERS_ONLY } from "@/lib/actions/action";
import { db } from "@/lib/platform/db/client";
import { addMember, signedInOwner, type TestAccount } from "../support/factories";
import { signInAs, signOut } from "../support/request-context";
import { renderedText } from "../support/rendered-text";

/*
 * Settings → Account: owners and admins change the account's time zone; the change is audited, and the
 * database's triggers move recurring series with it (docs/recurring-events.md).
 */

let owner: TestAccount;

const zoneOf = async (accountId: string) =>
  (await db.pool.query("SELECT timezone FROM accounts WHERE id = $1", [accountId])).rows[0].timezone as string;

const auditOf = async (accountId: string) =>
  (
    await db.pool.query(
      `SELECT action, actor_id, target_type, metadata FROM audit_log
       WHERE account_id = $1 AND action = 'account.timezone_changed' ORDER BY created_at`,
      [accountId],
    )
  ).rows;

beforeEach(async () => {
  owner = await signedInOwner("Yoga Studio", "Europe/Berlin");
});

describe("changing the account's time zone", () => {
  it("changes it, audits from → to, and moves a weekly class to its first start's time in the new zone", async () => {
    const { rows } = await db.pool.query<{ id: string }>(
      `INSERT INTO events (account_id, title, starts_at, recurring) VALUES ($1, 'Morning Yoga', '2026-10-03T07:00:00Z', 'weekly')
       RETURNING id`,
      [owner.accountId],
    );
    const phase = async () =>
      (await db.pool.query("SELECT series_phase FROM events WHERE id = $1", [rows[0].id])).rows[0].series_phase;
    expect(await phase()).toBe(6 * 1440 + 9 * 60); // Saturday 09:00 in Berlin.

    const answer = await changeTimeZoneAction({ timezone: "America/New_York" });
    expect(answer).toEqual({
      ok: true,
      data: { timeZone: "America/New_York", message: "Time zone changed to America/New_York." },
    });
    expect(await zoneOf(owner.accountId)).toBe("America/New_York");
    expect(await phase()).toBe(6 * 1440 + 3 * 60); // Saturday 03:00 in New York.
    expect(await auditOf(owner.accountId)).toEqual([
      {
        action: "account.timezone_changed",
        actor_id: owner.user.id,
        target_type: "account",
        metadata: { from: "Europe/Berlin", to: "America/New_York" },
      },
    ]);
  });

  it("answers that nothing changed for the current zone, and audits nothing", async () => {
    expect(await changeTimeZoneAction({ timezone: "Europe/Berlin" })).toMatchObject({
      ok: true,
      data: { message: "Nothing changed: Europe/Berlin is the current time zone." },
    });
    expect(await auditOf(owner.accountId)).toEqual([]);
  });

  it("refuses a zone that is none, or too long, naming the field and changing nothing", async () => {
    for (const timezone of ["Mars/Olympus_Mons", "Europe/Berlin; DROP TABLE accounts", "", "x".repeat(65)]) {
      const answer = await changeTimeZoneAction({ timezone });
      expect(answer.ok).toBe(false);
      if (!answer.ok) expect(answer.fieldErrors?.timezone?.[0]).toMatch(/time zone|Too big|at most/i);
    }
    expect(await zoneOf(owner.accountId)).toBe("Europe/Berlin");
    expect(await auditOf(owner.accountId)).toEqual([]);
  });

  it("refuses members and visitors without a session", async () => {
    await signInAs(await addMember(owner.accountId, "member"));
    expect(await changeTimeZoneAction({ timezone: "UTC" })).toEqual({ ok: false, error: MANAGERS_ONLY });
    // The page gives members the zone without the form (the form's client component reads canManage).
    expect(renderedText(await AccountSettingsPage())).toContain('"canManage":false');
    signOut();
    expect((await changeTimeZoneAction({ timezone: "UTC" })).ok).toBe(false);
    expect(await zoneOf(owner.accountId)).toBe("Europe/Berlin");
  });
});
