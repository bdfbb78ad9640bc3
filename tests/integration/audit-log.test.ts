import { describe, expect, it } from "vitest";
import AuditLogPage from "@/app/(dashboard)/settings/audit-log/page";
import { decodeCursor, listAuditLog, type AuditLogPage as Page } from "@/lib/audit/list";
import { describeAuditAction, describeAuditTarget } from "@/lib/audit/labels";
import { recordAudit } from "@/lib/audit/record";
import { db } from "@/lib/platform/db/client";
import { listSources, revealSecret } from "@/lib/events-webhook/sources";
import { createEvent, deleteEvent } from "@/lib/events/repository";
import { createKey } from "../support/api-keys";
import { createAccount } from "../support/factories";
import { signInAs } from "../support/request-context";
import { renderedText } from "../support/rendered-text";

/** `count` entries; every third shares its timestamp with the previous one, to exercise the id tie-break. */
async function seed(accountId: string, count: number) {
  await db.pool.query(
    `INSERT INTO audit_log (account_id, actor_label, action, target_type, target_id, target_label, created_at)
     SELECT $1, 'Ada', 'api_key.created', 'api_key', gen_random_uuid()::text, 'key ' || n,
            timestamptz '2026-01-01' + make_interval(secs => n - (n % 3 = 0)::int)
     FROM generate_series(1, $2) AS n`,
    [accountId, count],
  );
}

describe("audit log listing", () => {
  it("pages newest first through every entry exactly once, down and back up", async () => {
    const { accountId } = await createAccount();
    await seed(accountId, 57);
    const expected = (
      await db.pool.query("SELECT id FROM audit_log WHERE account_id = $1 ORDER BY created_at DESC, id DESC", [
        accountId,
      ])
    ).rows.map((row) => row.id);

    const pages: Page[] = [await listAuditLog(accountId, {}, 10)];
    while (pages.at(-1)!.older) pages.push(await listAuditLog(accountId, { older: pages.at(-1)!.older }, 10));
    // 57 seeded, plus what sign-up itself recorded.
    expect(expected.length).toBeGreaterThanOrEqual(57);
    expect(pages).toHaveLength(Math.ceil(expected.length / 10));
    expect(pages.slice(0, -1).every((page) => page.entries.length === 10)).toBe(true);
    expect(pages.flatMap((page) => page.entries.map((entry) => entry.id))).toEqual(expected);
    expect(pages[0].newer).toBeNull();
    expect(pages.at(-1)!.older).toBeNull();

    // Going back up from the last page retraces the same pages.
    let page = pages.at(-1)!;
    for (let index = pages.length - 2; index >= 0; index--) {
      page = await listAuditLog(accountId, { newer: page.newer }, 10);
      expect(page.entries.map((entry) => entry.id)).toEqual(pages[index].entries.map((entry) => entry.id));
    }
    expect(page.newer).toBeNull();
  });

  it("shows only the account's own entries, and treats a forged cursor as the first page", async () => {
    const mine = await createAccount();
    const theirs = await createAccount();
    await seed(theirs.accountId, 3);
    await createKey(mine, { name: "Mine" });
    const page = await listAuditLog(mine.accountId, { older: "bm90IGEgY3Vyc29y" });
    const own = await db.pool.query(
      "SELECT id FROM audit_log WHERE account_id = $1 ORDER BY created_at DESC, id DESC",
      [mine.accountId],
    );
    expect(page.entries.map((entry) => entry.id)).toEqual(own.rows.map((row) => row.id));
    expect(page.entries[0].targetLabel).toBe("Mine");
    expect(decodeCursor("garbage")).toBeNull();
  });

  it("lists webhook source changes recorded by other features alongside key changes", async () => {
    const owner = await createAccount();
    await createKey(owner, { name: "Zapier" });
    await recordAudit({
      accountId: owner.accountId,
      actor: owner.user,
      action: "webhook_source.secret_rotated",
      target: { type: "webhook_source", id: crypto.randomUUID(), label: "Booking platform" },
    });
    const { entries } = await listAuditLog(owner.accountId);
    expect(entries.slice(0, 2).map((entry) => [entry.action, entry.targetLabel, entry.actorLabel])).toEqual([
      ["webhook_source.secret_rotated", "Booking platform", `${owner.user.name} <${owner.user.email}>`],
      ["api_key.created", "Zapier", `${owner.user.name} <${owner.user.email}>`],
    ]);
  });

  it("renders the entries on the Audit log page with pagination links", async () => {
    const owner = await createAccount();
    await seed(owner.accountId, 30);
    await signInAs(owner.user);
    const serialised = renderedText(await AuditLogPage({ searchParams: Promise.resolve({}) }));
    expect(serialised).toContain("Created API key");
    expect(serialised).toContain("key 30");
    expect(serialised).toContain("?older=");
  });
});

describe("sensitive actions outside keys and sources", () => {
  it("records who revealed a signing secret, and nothing for a refused reveal", async () => {
    const owner = await createAccount();
    const [source] = await listSources(owner.accountId);
    const context = {
      user: owner.user,
      account: { id: owner.accountId, name: "Audit", plan: "free" as const, timezone: "UTC" },
      role: "owner" as const,
    };
    const revealed = await revealSecret(context, source.id);
    expect(revealed).toMatchObject({ ok: true, secret: expect.any(String) });
    expect(await revealSecret({ ...context, role: "member" }, source.id)).toMatchObject({
      ok: false,
      code: "forbidden",
    });
    const { entries } = await listAuditLog(owner.accountId);
    const reveals = entries.filter((entry) => entry.action === "webhook_source.secret_revealed");
    expect(reveals).toHaveLength(1);
    expect(reveals[0]).toMatchObject({
      actorLabel: `${owner.user.name} <${owner.user.email}>`,
      targetType: "webhook_source",
      targetId: source.id,
      targetLabel: source.name,
    });
    expect(JSON.stringify(reveals[0])).not.toContain(revealed.ok ? revealed.secret : "-");
  });

  it("records a deleted event with its identity, and nothing when there was nothing to delete", async () => {
    const owner = await createAccount();
    const yoga = { title: "Yoga", starts_at: "2026-05-04T18:30:00+02:00", location: "Studio 2" };
    const created = await createEvent(owner.accountId, yoga);
    if (!created.ok) throw new Error(created.message);
    expect(await deleteEvent(owner.accountId, created.event.id, owner.user)).toBe(true);
    expect(await deleteEvent(owner.accountId, created.event.id, owner.user)).toBe(false);
    const deletions = (await listAuditLog(owner.accountId)).entries.filter((entry) => entry.action === "event.deleted");
    expect(deletions).toEqual([
      expect.objectContaining({
        targetType: "event",
        targetId: created.event.id,
        targetLabel: "Yoga",
        metadata: { starts_at: "2026-05-04T16:30:00.000Z", location: "Studio 2" },
      }),
    ]);
    expect(describeAuditAction("event.deleted")).toBe("Deleted event");
    expect(describeAuditTarget({ targetType: "account", metadata: { created: 1200, updated: 3, failed: 0 } })).toBe(
      "1,200 created, 3 updated, 0 failed",
    );
  });
});
