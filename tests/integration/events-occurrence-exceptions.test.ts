import { beforeEach, describe, expect, it } from "vitest";
import { removeOccurrenceAction, restoreOccurrenceAction } from "@/app/(dashboard)/knowledge/events/actions";
import EventPage from "@/app/(dashboard)/knowledge/events/[id]/page";
import {
  RemoveOccurrenceButtons,
  RestoreOccurrenceButton,
} from "@/app/(dashboard)/knowledge/events/[id]/_components/occurrence-actions";
import { MANAGERS_ONLY } from "@/lib/actions/action";
import { describeAuditTarget } from "@/lib/audit/labels";
import { db } from "@/lib/platform/db/client";
import { occurrenceLabel } from "@/lib/events/exceptions";
import { occurrencesBetween } from "@/lib/events/occurrences";
import { zonedInputToIso } from "@/lib/platform/format/zoned-time";
import { addMember, createAccount, signedInOwner, type TestAccount } from "../support/factories";
import { signInAs, signOut } from "../support/request-context";
import { notFoundOf, renderedText } from "../support/rendered-text";

/*
 * An event's page lists a series' next occurrences and its exceptions; owners and admins cancel or delete
 * one occurrence and restore it, as the webhook's occurrence actions do (docs/recurring-events.md,
 * "Dashboard"): the exception row, the series' updated_at, event.updated and an audit entry. The account's
 * zone is Europe/Berlin, so the series keeps 09:00 local across the October DST change (07:00Z → 08:00Z).
 */

const FIRST = "2026-10-03T07:00:00.000Z"; // Saturday 3 October 2026, 09:00 in Berlin.
const LATER = "2026-11-07T08:00:00.000Z"; // Saturday 7 November, 09:00 in Berlin (CET).

let owner: TestAccount;

async function insertSeries(accountId: string, startsAt = FIRST, title = "Morning Yoga"): Promise<string> {
  const { rows } = await db.pool.query<{ id: string }>(
    `INSERT INTO events (account_id, title, starts_at, ends_at, location, recurring)
     VALUES ($1, $2, $3, $3::timestamptz + interval '1 hour', 'Studio 2', 'weekly') RETURNING id`,
    [accountId, title, startsAt],
  );
  return rows[0].id;
}

const rowsOf = async (sql: string, id: string) => (await db.pool.query(sql, [id])).rows;

const exceptionsOf = async (eventId: string) =>
  (await rowsOf("SELECT occurs_at, kind FROM event_exceptions WHERE event_id = $1 ORDER BY occurs_at", eventId)).map(
    (row) => [row.occurs_at.toISOString(), row.kind],
  );

/** Each outbound notification's type and the event it carries. */
const messagesOf = async (accountId: string) =>
  (
    await rowsOf("SELECT type, payload FROM outbound_messages WHERE account_id = $1 ORDER BY created_at, id", accountId)
  ).map((row) => [row.type, row.payload.data.id]);

const auditOf = (accountId: string) =>
  rowsOf(
    `SELECT action, target_id, target_label, actor_id, metadata FROM audit_log
     WHERE account_id = $1 AND target_type = 'event' ORDER BY created_at`,
    accountId,
  );

const updatedAt = async (eventId: string) =>
  (await rowsOf("SELECT updated_at FROM events WHERE id = $1", eventId))[0].updated_at as Date;

const eventPage = (id: string) => EventPage({ params: Promise.resolve({ id }) });

/** The part of a rendered page inside the element with this id (the page's sections are labelled by id). */
function part(tree: unknown, id: string, seen = new Set<unknown>()): unknown {
  if (!tree || typeof tree !== "object" || seen.has(tree)) return undefined;
  seen.add(tree);
  if ((tree as { props?: { id?: unknown } }).props?.id === id) return tree;
  for (const value of Object.values(tree)) {
    const found = part(value, id, seen);
    if (found) return found;
  }
  return undefined;
}

/** The props of every element of `type` (a component function) in a rendered tree. */
function propsOf(tree: unknown, type: unknown, seen = new Set<unknown>()): Record<string, unknown>[] {
  if (!tree || typeof tree !== "object" || seen.has(tree)) return [];
  seen.add(tree);
  const element = tree as { type?: unknown; props?: Record<string, unknown> };
  const own = element.type === type && element.props ? [element.props] : [];
  return [...own, ...Object.values(tree).flatMap((value) => propsOf(value, type, seen))];
}

beforeEach(async () => {
  owner = await signedInOwner("Yoga Studio", "Europe/Berlin");
});

describe("removing and restoring one occurrence from the dashboard", () => {
  it("cancels one later occurrence only, announces event.updated with the series and audits it", async () => {
    const eventId = await insertSeries(owner.accountId);
    const before = await updatedAt(eventId);
    const answer = await removeOccurrenceAction({ eventId, occursAt: LATER, kind: "cancelled" });
    const message = expect.stringMatching(/^Sat 7 Nov( 2026)?, 09:00 is cancelled; the rest of the series stays\.$/);
    expect(answer).toMatchObject({ ok: true, data: { message } });
    expect(await exceptionsOf(eventId)).toEqual([[LATER, "cancelled"]]);
    expect((await updatedAt(eventId)).getTime()).toBeGreaterThan(before.getTime());
    const [series] = await rowsOf("SELECT starts_at, status, recurring FROM events WHERE id = $1", eventId);
    expect(series).toEqual({ starts_at: new Date(FIRST), status: "upcoming", recurring: "weekly" });
    expect(await messagesOf(owner.accountId)).toEqual([["event.updated", eventId]]);
    expect(await auditOf(owner.accountId)).toEqual([
      {
        action: "event.occurrence_cancelled",
        target_id: eventId,
        target_label: "Morning Yoga",
        actor_id: owner.user.id,
        metadata: { occurs_at: LATER, occurrence: "Nov 7, 2026, 09:00 GMT+1" },
      },
    ]);
    const [entry] = await auditOf(owner.accountId);
    expect(describeAuditTarget({ targetType: "event", metadata: entry.metadata })).toBe(
      "occurrence Nov 7, 2026, 09:00 GMT+1",
    );
  });

  it("deletes one occurrence, and a restore brings it back with event.updated and an audit entry", async () => {
    const eventId = await insertSeries(owner.accountId);
    expect(await removeOccurrenceAction({ eventId, occursAt: LATER, kind: "deleted" })).toMatchObject({ ok: true });
    expect(await exceptionsOf(eventId)).toEqual([[LATER, "deleted"]]);
    // Cancelling a deleted occurrence keeps it deleted (the webhook's rule) and changes nothing.
    expect(await removeOccurrenceAction({ eventId, occursAt: LATER, kind: "cancelled" })).toMatchObject({
      ok: true,
      data: { message: expect.stringContaining("is deleted") },
    });
    expect(await exceptionsOf(eventId)).toEqual([[LATER, "deleted"]]);

    const restored = await restoreOccurrenceAction({ eventId, occursAt: "2026-11-07T09:00:00+01:00" });
    expect(restored).toMatchObject({ ok: true, data: { message: expect.stringMatching(/, 09:00 is restored\.$/) } });
    expect(await exceptionsOf(eventId)).toEqual([]);
    expect(await messagesOf(owner.accountId)).toEqual([
      ["event.updated", eventId],
      ["event.updated", eventId],
    ]);
    expect((await auditOf(owner.accountId)).map((entry) => [entry.action, entry.metadata.occurs_at])).toEqual([
      ["event.occurrence_deleted", LATER],
      ["event.occurrence_restored", LATER],
    ]);
    expect(await restoreOccurrenceAction({ eventId, occursAt: LATER })).toEqual({
      ok: false,
      error: expect.stringMatching(/^The occurrence on Sat 7 Nov( 2026)?, 09:00 is not removed; it may have been/),
    });
  });

  it("refuses an instant that is not an occurrence (09:01 instead of 09:00) with a clear error", async () => {
    const eventId = await insertSeries(owner.accountId);
    const before = await updatedAt(eventId);
    const error = expect.stringMatching(/^“Morning Yoga” has no occurrence starting \w+ \d+ \w+( \d+)?, \d\d:\d\d\.$/);
    for (const occursAt of ["2026-11-07T08:01:00.000Z", "2026-11-08T08:00:00.000Z", "2026-09-26T07:00:00.000Z"]) {
      expect(await removeOccurrenceAction({ eventId, occursAt, kind: "cancelled" })).toEqual({ ok: false, error });
    }
    const unreadable = { ok: false, error: "Choose an occurrence by its start time." };
    expect(await removeOccurrenceAction({ eventId, occursAt: "next Saturday", kind: "cancelled" })).toEqual(unreadable);
    const farAway = "+275760-09-13T00:00:00Z";
    expect(await removeOccurrenceAction({ eventId, occursAt: farAway, kind: "cancelled" })).toEqual(unreadable);
    expect(await restoreOccurrenceAction({ eventId, occursAt: "+020000-01-01T00:00:00Z" })).toEqual(unreadable);
    // The first occurrence is the series: a cancel of it belongs to the event's own Cancel.
    expect(await removeOccurrenceAction({ eventId, occursAt: FIRST, kind: "cancelled" })).toEqual({
      ok: false,
      error: expect.stringContaining("is the first occurrence of “Morning Yoga”"),
    });
    const insertOneOff = "INSERT INTO events (account_id, title, starts_at) VALUES ($1, 'Gala', $2) RETURNING id";
    const oneOff = (await db.pool.query<{ id: string }>(insertOneOff, [owner.accountId, LATER])).rows[0].id;
    expect(await removeOccurrenceAction({ eventId: oneOff, occursAt: LATER, kind: "deleted" })).toEqual({
      ok: false,
      error: "“Gala” does not repeat: cancel or delete the event itself.",
    });
    expect(await exceptionsOf(eventId)).toEqual([]);
    expect(await updatedAt(eventId)).toEqual(before);
    expect(await messagesOf(owner.accountId)).toEqual([]);
    expect(await auditOf(owner.accountId)).toEqual([]);
  });

  it("refuses members and visitors without a session, changing nothing", async () => {
    const eventId = await insertSeries(owner.accountId);
    await removeOccurrenceAction({ eventId, occursAt: LATER, kind: "cancelled" });
    const member = await addMember(owner.accountId, "member");
    await signInAs(member);
    const refused = { ok: false, error: MANAGERS_ONLY };
    const another = "2026-11-14T08:00:00.000Z";
    expect(await removeOccurrenceAction({ eventId, occursAt: another, kind: "deleted" })).toEqual(refused);
    expect(await restoreOccurrenceAction({ eventId, occursAt: LATER })).toEqual(refused);
    signOut();
    expect((await restoreOccurrenceAction({ eventId, occursAt: LATER })).ok).toBe(false);
    expect(await exceptionsOf(eventId)).toEqual([[LATER, "cancelled"]]);
  });

  it("cannot remove or restore an occurrence of another account's series", async () => {
    const victim = await createAccount("Victim Venue");
    const eventId = await insertSeries(victim.accountId);
    await db.pool.query(
      "INSERT INTO event_exceptions (account_id, event_id, occurs_at, kind) VALUES ($1, $2, $3, 'cancelled')",
      [victim.accountId, eventId, LATER],
    );
    const gone = { ok: false, error: "The event no longer exists." };
    const another = "2026-11-14T08:00:00.000Z";
    expect(await removeOccurrenceAction({ eventId, occursAt: another, kind: "deleted" })).toEqual(gone);
    expect(await restoreOccurrenceAction({ eventId, occursAt: LATER })).toEqual(gone);
    expect(await removeOccurrenceAction({ eventId: "not-a-uuid", occursAt: LATER, kind: "deleted" })).toEqual(gone);
    expect(await exceptionsOf(eventId)).toEqual([[LATER, "cancelled"]]);
    expect(await messagesOf(victim.accountId)).toEqual([]);
  });
});

describe("an event's page", () => {
  /** A weekly series at 09:00 in Berlin that began on a Saturday about five weeks ago. */
  async function liveSeries(): Promise<{ eventId: string; next: Date[] }> {
    const day = new Date(Date.now() - 35 * 86_400_000);
    day.setUTCDate(day.getUTCDate() - ((day.getUTCDay() + 1) % 7));
    const startsAt = zonedInputToIso(`${day.toISOString().slice(0, 10)}T09:00`, "Europe/Berlin")!;
    const eventId = await insertSeries(owner.accountId, startsAt);
    const series = {
      startsAt: new Date(startsAt),
      endsAt: new Date(Date.parse(startsAt) + 3_600_000),
      recurring: "weekly" as const,
      timeZone: "Europe/Berlin",
    };
    const inAYear = new Date(Date.now() + 400 * 86_400_000);
    const next = occurrencesBetween(series, new Date(), inAYear, 12).map((occurrence) => occurrence.startsAt);
    return { eventId, next };
  }

  it("lists a series' next ten occurrences without its exceptions, and the exceptions with Restore", async () => {
    const { eventId, next } = await liveSeries();
    const removed = next[1];
    const answer = await removeOccurrenceAction({ eventId, occursAt: removed.toISOString(), kind: "cancelled" });
    expect(answer).toMatchObject({ ok: true });

    const tree = await eventPage(eventId);
    const text = renderedText(tree);
    expect(text).toContain("Morning Yoga");
    expect(text).toContain("Repeats weekly: every Saturday, 09:00 (Europe/Berlin).");
    expect(text).toContain("Studio 2");

    const upcoming = propsOf(part(tree, "event-next"), RemoveOccurrenceButtons);
    const expected = [next[0], ...next.slice(2, 11)];
    expect(upcoming.map((props) => props.occursAt)).toEqual(expected.map((instant) => instant.toISOString()));
    expect(upcoming[0].label).toMatch(/^Sat \d+ \w+( \d{4})?, 09:00$/);

    const exceptions = part(tree, "event-exceptions");
    expect(renderedText(exceptions)).toContain("cancelled");
    const restore = propsOf(exceptions, RestoreOccurrenceButton);
    const label = occurrenceLabel(removed, "Europe/Berlin", new Date());
    expect(label).toMatch(/^Sat \d+ \w+( \d{4})?, 09:00$/);
    expect(restore).toEqual([{ eventId, occursAt: removed.toISOString(), label }]);
    expect(renderedText(exceptions)).toContain(label);
  });

  it("shows an empty state for a series without exceptions, and no controls to members", async () => {
    const { eventId } = await liveSeries();
    const member = await addMember(owner.accountId, "member");
    await signInAs(member);
    const tree = await eventPage(eventId);
    expect(renderedText(part(tree, "event-exceptions"))).toContain("No exceptions");
    expect(renderedText(part(tree, "event-next"))).toMatch(/Sat \d+ \w+( \d{4})?, 09:00/);
    expect(propsOf(tree, RemoveOccurrenceButtons)).toEqual([]);
    expect(propsOf(tree, RestoreOccurrenceButton)).toEqual([]);
  });

  it("shows a one-off event's fields without the series' lists", async () => {
    const { rows } = await db.pool.query<{ id: string }>(
      `INSERT INTO events (account_id, title, starts_at, location, price, url, description, status)
       VALUES ($1, 'Winter concert', '2027-01-15T19:00:00Z', 'Main Hall', '€20', 'https://example.test/concert',
               'Brass and choir', 'cancelled') RETURNING id`,
      [owner.accountId],
    );
    const tree = await eventPage(rows[0].id);
    const text = renderedText(tree);
    const shown = ["Winter concert", "Jan 15, 2027, 20:00 GMT+1", "Main Hall", "€20", "https://example.test/concert"];
    for (const field of [...shown, "Brass and choir", "Cancelled", "Does not repeat"]) expect(text).toContain(field);
    expect(part(tree, "event-next")).toBeUndefined();
    expect(part(tree, "event-exceptions")).toBeUndefined();
  });

  it("is a 404 for another account's event and for an id that is none", async () => {
    const victim = await createAccount("Victim Venue");
    const theirs = await insertSeries(victim.accountId);
    expect(await notFoundOf(() => eventPage(theirs))).toBe(true);
    expect(await notFoundOf(() => eventPage("not-an-id"))).toBe(true);
    expect(await notFoundOf(() => eventPage(crypto.randomUUID()))).toBe(true);
  });
});
