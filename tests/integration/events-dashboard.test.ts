import { beforeEach, describe, expect, it } from "vitest";
import { cancelEventAction, deleteEventAction, saveEventAction } from "@/app/(dashboard)/knowledge/events/actions";
import {
  createSourceAction,
  revealSecretAction,
  rotateSecretAction,
  sendTestEventAction,
  setSourceActiveAction,
  updateSourceSettingsAction,
} from "@/app/(dashboard)/knowledge/events/webhook/actions";
import { db } from "@/lib/platform/db/client";
import { listDeliveries } from "@/lib/events-webhook/deliveries";
import { listSources, readSecret } from "@/lib/events-webhook/sources";
import { addMember, signedInOwner, type TestAccount } from "../support/factories";
import { signInAs, signOut } from "../support/request-context";
import { eventsOf } from "../support/stored";

const form = (values: Record<string, string | File>) => {
  const data = new FormData();
  for (const [key, value] of Object.entries(values)) data.set(key, value);
  return data;
};

let owner: TestAccount;
beforeEach(async () => {
  owner = await signedInOwner();
});

describe("manual event editing", () => {
  it("creates an event from wall-clock times in the account's time zone", async () => {
    await db.prisma.account.update({ where: { id: owner.accountId }, data: { timezone: "Europe/Berlin" } });
    const state = await saveEventAction(
      form({
        title: "Open Day",
        starts_at: "2026-05-01T10:00",
        ends_at: "2026-05-01T12:00",
        location: "Berlin",
        status: "upcoming",
        recurring: "",
      }),
    );
    expect(state).toMatchObject({ ok: true });
    const [event] = await eventsOf(owner.accountId);
    expect(event).toMatchObject({
      title: "Open Day",
      startsAt: new Date("2026-05-01T08:00:00Z"),
      startsAtOffset: "+02:00",
      location: "Berlin",
    });
  });

  it("returns field errors from the shared schema and stores nothing", async () => {
    const state = await saveEventAction(form({ title: "", starts_at: "", url: "javascript:alert(1)" }));
    expect(state.ok).toBe(false);
    expect(state).toMatchObject({ ok: false, fieldErrors: { starts_at: [expect.any(String)] } });
    const again = await saveEventAction(
      form({ title: " ", starts_at: "2026-05-01T10:00", url: "javascript:alert(1)", status: "upcoming" }),
    );
    expect(again).toMatchObject({ ok: false, fieldErrors: { title: [expect.any(String)], url: [expect.any(String)] } });
    expect(await eventsOf(owner.accountId)).toHaveLength(0);
  });

  it("words a field error with the form's labels, not the API's field names", async () => {
    const state = await saveEventAction(
      form({ title: "Talk", starts_at: "2026-05-01T10:00", ends_at: "2026-05-01T09:00", status: "upcoming" }),
    );
    expect(state).toMatchObject({ ok: false, fieldErrors: { ends_at: ["Must not be before Starts."] } });
    expect(await eventsOf(owner.accountId)).toHaveLength(0);
  });

  it("edits, cancels and deletes an event", async () => {
    await saveEventAction(form({ title: "Talk", starts_at: "2026-05-01T10:00", status: "upcoming" }));
    const [event] = await eventsOf(owner.accountId);
    expect(
      await saveEventAction(
        form({
          eventId: event.id,
          title: "Talk (moved)",
          starts_at: "2026-05-02T10:00",
          location: "Room 2",
          status: "upcoming",
        }),
      ),
    ).toMatchObject({ ok: true });
    expect(await eventsOf(owner.accountId)).toMatchObject([{ title: "Talk (moved)", location: "Room 2" }]);
    expect(await cancelEventAction({ eventId: event.id })).toMatchObject({ ok: true });
    expect((await eventsOf(owner.accountId))[0].status).toBe("cancelled");
    expect(await deleteEventAction({ eventId: event.id })).toMatchObject({ ok: true });
    expect(await eventsOf(owner.accountId)).toHaveLength(0);
  });

  it("refuses visitors without a session and read-only members, changing nothing", async () => {
    await saveEventAction(form({ title: "Keep me", starts_at: "2026-05-01T10:00", status: "upcoming" }));
    const [event] = await eventsOf(owner.accountId);
    const member = await addMember(owner.accountId, "member");
    for (const signIn of [() => signInAs(member), async () => signOut()]) {
      await signIn();
      expect((await saveEventAction(form({ title: "New", starts_at: "2026-05-01T10:00" }))).ok).toBe(false);
      expect(
        (await saveEventAction(form({ eventId: event.id, title: "Changed", starts_at: "2026-05-01T10:00" }))).ok,
      ).toBe(false);
      expect((await cancelEventAction({ eventId: event.id })).ok).toBe(false);
      expect((await deleteEventAction({ eventId: event.id })).ok).toBe(false);
    }
    expect(await eventsOf(owner.accountId)).toMatchObject([{ title: "Keep me", status: "upcoming" }]);
  });

  it("cannot read or change another account's event or source", async () => {
    await saveEventAction(form({ title: "Mine", starts_at: "2026-05-01T10:00", status: "upcoming" }));
    const [event] = await eventsOf(owner.accountId);
    const [source] = await listSources(owner.accountId);
    const secretBefore = await readSecret(owner.accountId, source.id);

    await signedInOwner("Mallory"); // another account's owner
    expect(
      await saveEventAction(
        form({ eventId: event.id, title: "Hacked", starts_at: "2026-05-01T10:00", status: "upcoming" }),
      ),
    ).toMatchObject({ ok: false });
    expect(await cancelEventAction({ eventId: event.id })).toMatchObject({ ok: false });
    expect(await deleteEventAction({ eventId: event.id })).toMatchObject({ ok: false });
    expect(await revealSecretAction({ sourceId: source.id })).toMatchObject({ ok: false });
    expect(await rotateSecretAction({ sourceId: source.id })).toMatchObject({ ok: false });
    expect(await setSourceActiveAction({ sourceId: source.id, active: false })).toMatchObject({ ok: false });
    expect(await sendTestEventAction({ sourceId: source.id })).toMatchObject({ ok: false });

    expect(await eventsOf(owner.accountId)).toMatchObject([{ title: "Mine", status: "upcoming" }]);
    expect(await readSecret(owner.accountId, source.id)).toBe(secretBefore);
    expect((await listSources(owner.accountId))[0].active).toBe(true);
  });
});

describe("webhook page actions", () => {
  it("sends a signed test event through the real handler: logged and stored", async () => {
    const [source] = await listSources(owner.accountId);
    const result = await sendTestEventAction({ sourceId: source.id });
    expect(result).toMatchObject({ ok: true, data: { status: 200 } });
    const deliveries = await listDeliveries(owner.accountId, source.id);
    expect(deliveries.items).toMatchObject([{ action: "upsert", status: 200, eventTitle: "Webhook test event" }]);
    expect(await eventsOf(owner.accountId)).toMatchObject([{ title: "Webhook test event", location: "Online" }]);
  });

  it("rotates the secret and reveals only the new one; members may do neither", async () => {
    const [source] = await listSources(owner.accountId);
    const before = await revealSecretAction({ sourceId: source.id });
    const rotated = await rotateSecretAction({ sourceId: source.id });
    expect(rotated.ok && before.ok && rotated.data.secret !== before.data.secret).toBe(true);
    expect(await revealSecretAction({ sourceId: source.id })).toEqual(rotated);

    const member = await addMember(owner.accountId, "member");
    await signInAs(member);
    expect(await revealSecretAction({ sourceId: source.id })).toEqual({
      ok: false,
      error: "Only owners and admins can do this.",
    });
    expect(await rotateSecretAction({ sourceId: source.id })).toMatchObject({ ok: false });
    expect(await readSecret(owner.accountId, source.id)).toBe(rotated.ok ? rotated.data.secret : "");
  });

  it("switches a source off and on, renames it and validates its rate limit", async () => {
    const [source] = await listSources(owner.accountId);
    expect(await setSourceActiveAction({ sourceId: source.id, active: false })).toEqual({
      ok: true,
      data: { active: false },
    });
    expect(await sendTestEventAction({ sourceId: source.id })).toMatchObject({ ok: true, data: { status: 403 } });
    expect(await setSourceActiveAction({ sourceId: source.id, active: true })).toEqual({
      ok: true,
      data: { active: true },
    });
    expect(
      await updateSourceSettingsAction(form({ sourceId: source.id, name: "CRM", rateLimitPerMinute: "0" })),
    ).toMatchObject({ ok: false, fieldErrors: { rateLimitPerMinute: [expect.any(String)] } });
    expect(
      await updateSourceSettingsAction(form({ sourceId: source.id, name: "CRM", rateLimitPerMinute: "600" })),
    ).toMatchObject({ ok: true });
    expect((await listSources(owner.accountId))[0]).toMatchObject({ name: "CRM", rateLimitPerMinute: 600 });
  });

  it("adds a source within the plan's limit of three", async () => {
    expect(await createSourceAction(form({ name: "" }))).toMatchObject({
      ok: false,
      fieldErrors: { name: [expect.any(String)] },
    });
    expect(await createSourceAction(form({ name: "Second" }))).toMatchObject({ ok: true });
    expect(await createSourceAction(form({ name: "Third" }))).toMatchObject({ ok: true });
    expect(await createSourceAction(form({ name: "Fourth" }))).toMatchObject({
      ok: false,
      error: expect.stringMatching(/allows 3 webhook sources/),
    });
    expect(await listSources(owner.accountId)).toHaveLength(3);
  });
});

describe("production server routing", () => {
  it("passes a source id with malformed percent-encoding through, to be answered 404", async () => {
    const { matchFastRoute } = await import("@/lib/server/fast-routes");
    const route = matchFastRoute("POST", "/api/v1/events/webhook/%E0%A4%A");
    expect(route).not.toBeNull();
    const response = await route!(
      new Request("http://localhost/api/v1/events/webhook/%E0%A4%A", { method: "POST", body: "{}" }),
    );
    expect(response.status).toBe(404);
    expect((await response.json()).error.code).toBe("source_not_found");
  });

  it("leaves every other path to Next.js", async () => {
    const { matchFastRoute } = await import("@/lib/server/fast-routes");
    expect(matchFastRoute("GET", "/knowledge/events")).toBeNull();
    expect(matchFastRoute("GET", "/api/v1/events/webhook/src_x")).toBeNull();
    expect(matchFastRoute("POST", "/api/v1/events/webhook/a/b")).toBeNull();
    expect(matchFastRoute("GET", "/api/public/zapier/me")).not.toBeNull();
  });
});
