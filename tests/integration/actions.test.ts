import { beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { deleteEventAction, saveEventAction } from "@/app/(dashboard)/knowledge/events/actions";
import {
  createSourceAction,
  setSourceActiveAction,
  updateSourceSettingsAction,
} from "@/app/(dashboard)/knowledge/events/webhook/actions";
import { defineAction, formList, ok } from "@/lib/actions/action";
import { db } from "@/lib/platform/db/client";
import { listSources } from "@/lib/events-webhook/sources";
import { addMember, createAccount, type TestAccount } from "../support/factories";
import { signInAs, signOut } from "../support/request-context";

const form = (values: Record<string, string | string[]>) => {
  const data = new FormData();
  for (const [key, value] of Object.entries(values)) for (const item of [value].flat()) data.append(key, item);
  return data;
};

// Probes that answer who they ran for, to see what defineAction lets through.
const probe = (role: "manager" | "member" | "public") =>
  defineAction({ role, input: z.object({ note: z.string().default("") }) }, async (input, context) =>
    ok({ note: input.note, role: context?.role ?? null }),
  );
const managerProbe = probe("manager");
const memberProbe = probe("member");
const publicProbe = probe("public");

let owner: TestAccount;
beforeEach(async () => {
  signOut();
  owner = await createAccount();
});

describe("defineAction: session and role", () => {
  it("lets owners and admins run manager actions, refuses members and visitors without a session", async () => {
    const admin = await addMember(owner.accountId, "admin");
    const member = await addMember(owner.accountId, "member");
    await signInAs(owner.user);
    expect(await managerProbe({})).toEqual({ ok: true, data: { note: "", role: "owner" } });
    await signInAs(admin);
    expect(await managerProbe({})).toEqual({ ok: true, data: { note: "", role: "admin" } });
    await signInAs(member);
    expect(await managerProbe({})).toEqual({ ok: false, error: "Only owners and admins can do this." });
    expect(await memberProbe({})).toEqual({ ok: true, data: { note: "", role: "member" } });
    signOut();
    expect(await managerProbe({})).toEqual({ ok: false, error: "Your session has ended. Sign in again." });
    expect(await memberProbe({})).toEqual({ ok: false, error: "Your session has ended. Sign in again." });
    expect(await publicProbe({ note: "hi" })).toEqual({ ok: true, data: { note: "hi", role: null } });
  });

  it("refuses a member calling a manager action, and nothing changes", async () => {
    const [source] = await listSources(owner.accountId);
    await signInAs(owner.user);
    await saveEventAction(form({ title: "Keep me", starts_at: "2026-05-01T10:00" }));
    const event = await db.prisma.event.findFirstOrThrow({ where: { accountId: owner.accountId } });

    await signInAs(await addMember(owner.accountId, "member"));
    const refused = { ok: false, error: "Only owners and admins can do this." };
    expect(await deleteEventAction({ eventId: event.id })).toEqual(refused);
    expect(await setSourceActiveAction({ sourceId: source.id, active: false })).toEqual(refused);
    expect(
      await updateSourceSettingsAction(null, form({ sourceId: source.id, name: "Renamed", rateLimitPerMinute: "5" })),
    ).toEqual(refused);
    expect(await createSourceAction(null, form({ name: "Another" }))).toEqual(refused);

    expect(await db.prisma.event.findFirstOrThrow({ where: { id: event.id } })).toMatchObject({ title: "Keep me" });
    expect(await listSources(owner.accountId)).toMatchObject([
      { id: source.id, name: source.name, active: true, rateLimitPerMinute: source.rateLimitPerMinute },
    ]);
  });
});

describe("defineAction: input", () => {
  it("answers input that does not match the schema with field errors, before the handler runs", async () => {
    await signInAs(owner.user);
    const [source] = await listSources(owner.accountId);
    const answer = await setSourceActiveAction({ sourceId: source.id, active: "yes" });
    expect(answer).toMatchObject({
      ok: false,
      error: "Check the fields marked below.",
      fieldErrors: { active: [expect.any(String)] },
    });
    expect((await listSources(owner.accountId))[0].active).toBe(true);
  });

  it("reads FormData: one value as a string, repeated values as a list, and a (previous, formData) call", async () => {
    await signInAs(owner.user);
    const lists = defineAction(
      { role: "member", input: z.object({ one: z.string(), many: formList(z.string()), none: formList(z.string()) }) },
      async (input) => ok(input),
    );
    expect(await lists(form({ one: "a", many: ["b", "c"] }))).toEqual({
      ok: true,
      data: { one: "a", many: ["b", "c"], none: [] },
    });
    expect(await lists({ ok: false, error: "earlier answer" }, form({ one: "a", many: "b" }))).toEqual({
      ok: true,
      data: { one: "a", many: ["b"], none: [] },
    });
  });
});
