import { beforeEach, describe, expect, it } from "vitest";
import { POST } from "@/app/(dashboard)/knowledge/events/import/route";
import { GET as template } from "@/app/(dashboard)/knowledge/events/template/route";
import { db } from "@/lib/platform/db/client";
import { exportEventsCsv } from "@/lib/events/csv-export";
import { createEvent } from "@/lib/events/repository";
import { createAccount, type TestAccount } from "../support/factories";
import { csvImportRoute } from "../support/csv-upload";
import { signInAs } from "../support/request-context";

/* The events CSV carries a series' recurrence and its exceptions (docs/recurring-events.md, "CSV"). */

const { upload } = csvImportRoute(POST, "/knowledge/events/import", "events.csv");

const HEADER = "title,starts_at,ends_at,description,location,url,price,recurring,status,exceptions";
const exported = (accountId: string) => new Response(exportEventsCsv(accountId, {})).text();

async function accountIn(timezone: string, name?: string): Promise<TestAccount> {
  const account = await createAccount(name);
  await db.prisma.account.update({ where: { id: account.accountId }, data: { timezone } });
  return account;
}

async function seriesOf(accountId: string, title: string) {
  const event = await db.prisma.event.findFirstOrThrow({ where: { accountId, title } });
  return event.id;
}

async function except(accountId: string, title: string, occursAt: string, kind: "cancelled" | "deleted") {
  const eventId = await seriesOf(accountId, title);
  await db.prisma.eventException.create({ data: { accountId, eventId, occursAt: new Date(occursAt), kind } });
}

/** Every event of the account with its exceptions, as comparable plain values (no ids, no times of writing). */
async function knowledge(accountId: string) {
  const events = await db.prisma.event.findMany({
    where: { accountId },
    include: { exceptions: { orderBy: { occursAt: "asc" } } },
    orderBy: [{ startsAt: "asc" }, { title: "asc" }],
  });
  return events.map(({ startsAt, endsAt, exceptions, ...event }) => ({
    ...without(event, ["id", "accountId", "createdAt", "updatedAt", "searchWords"]),
    startsAt: startsAt.toISOString(),
    endsAt: endsAt?.toISOString() ?? null,
    exceptions: exceptions.map((exception) => `${exception.kind} ${exception.occursAt.toISOString()}`),
  }));
}

const without = <T extends object, K extends keyof T>(value: T, keys: K[]) =>
  Object.fromEntries(Object.entries(value).filter(([key]) => !keys.includes(key as K))) as Omit<T, K>;

let owner: TestAccount;
beforeEach(async () => {
  owner = await accountIn("Europe/Berlin");
  await signInAs(owner.user);
});

describe("export", () => {
  it("writes a series' exceptions with their kind and each occurrence's offset in the account's zone", async () => {
    const yoga = {
      title: "Morning Yoga",
      starts_at: "2026-10-03T09:00:00+02:00",
      ends_at: "2026-10-03T10:30:00+02:00",
    };
    expect((await createEvent(owner.accountId, { ...yoga, location: "Studio 2", recurring: "weekly" })).ok).toBe(true);
    await except(owner.accountId, "Morning Yoga", "2026-11-14T08:00:00Z", "deleted");
    await except(owner.accountId, "Morning Yoga", "2026-10-17T07:00:00Z", "cancelled");
    // Left from an earlier start time: no longer an occurrence, so not exported.
    await except(owner.accountId, "Morning Yoga", "2026-10-24T07:30:00Z", "cancelled");

    const text = await exported(owner.accountId);
    expect(text.split("\r\n")[0]).toBe(HEADER);
    expect(text).toContain(
      "Morning Yoga,2026-10-03T09:00:00+02:00,2026-10-03T10:30:00+02:00,,Studio 2,,,weekly,upcoming," +
        "cancelled 2026-10-17T09:00:00+02:00; deleted 2026-11-14T09:00:00+01:00\r\n",
    );
  });
});

describe("a CSV round trip", () => {
  it("keeps recurrence and exceptions exactly: export, import into a fresh account, export again", async () => {
    const events = [
      {
        title: "Morning Yoga",
        starts_at: "2026-10-03T09:00:00+02:00",
        ends_at: "2026-10-03T10:30:00+02:00",
        recurring: "weekly",
      },
      { title: "Stand-up", starts_at: "2026-10-05T08:30:00Z", location: "Online", recurring: "daily", price: "-" },
      { title: "Month End Quiz", starts_at: "2026-08-31T20:00:00+02:00", recurring: "monthly", status: "cancelled" },
      { title: "Founders' Day", starts_at: "2024-02-29T12:00:00+01:00", location: "Hall", recurring: "yearly" },
      { title: "Open Day", starts_at: "2026-10-10T10:00:00+02:00", location: "Berlin" },
    ];
    for (const event of events) expect((await createEvent(owner.accountId, event)).ok).toBe(true);
    await except(owner.accountId, "Morning Yoga", "2026-10-17T07:00:00Z", "cancelled");
    await except(owner.accountId, "Morning Yoga", "2026-11-14T08:00:00Z", "deleted");
    await except(owner.accountId, "Stand-up", "2026-10-06T08:30:00Z", "deleted");
    await except(owner.accountId, "Month End Quiz", "2026-12-31T19:00:00Z", "cancelled");
    await except(owner.accountId, "Founders' Day", "2028-02-29T11:00:00Z", "cancelled");
    const first = await exported(owner.accountId);
    expect(first).toContain(",'-,daily,upcoming,deleted 2026-10-06T08:30:00Z\r\n");
    expect(first).toContain("cancelled 2026-12-31T20:00:00+01:00");

    const fresh = await accountIn("Europe/Berlin", "Fresh");
    await signInAs(fresh.user);
    const { state } = await upload(first);
    expect(state).toMatchObject({ stage: "done", created: 5, updated: 0, failed: 0, problems: [] });
    expect(await knowledge(fresh.accountId)).toEqual(await knowledge(owner.accountId));
    expect(await exported(fresh.accountId)).toBe(first);
  });

  it("imports a series exported in another zone with each exception on that zone's occurrence", async () => {
    const yoga = { title: "Morning Yoga", starts_at: "2026-10-24T09:00:00+02:00", recurring: "weekly" };
    expect((await createEvent(owner.accountId, yoga)).ok).toBe(true);
    // 31 October: Berlin is back on winter time, New York not yet, so the zones are five hours apart.
    await except(owner.accountId, "Morning Yoga", "2026-10-31T08:00:00Z", "cancelled");
    await except(owner.accountId, "Morning Yoga", "2026-11-07T08:00:00Z", "deleted");

    const newYork = await accountIn("America/New_York", "New York");
    await signInAs(newYork.user);
    const { state } = await upload(await exported(owner.accountId));
    expect(state).toMatchObject({ stage: "done", created: 1, failed: 0, problems: [] });
    // The series keeps its first start; in New York it is every Saturday at 03:00.
    expect((await knowledge(newYork.accountId))[0].exceptions).toEqual([
      "cancelled 2026-10-31T07:00:00.000Z",
      "deleted 2026-11-07T08:00:00.000Z",
    ]);
  });
});

describe("what an import does to a series' exceptions", () => {
  const header = "title,starts_at,location,recurring,exceptions\r\n";
  const row = (exceptions: string) => `Morning Yoga,2026-10-03T09:00:00+02:00,Studio 2,weekly,${exceptions}\r\n`;
  const exceptionsOf = async () => (await knowledge(owner.accountId))[0].exceptions;

  it("replaces them with the cell's when the file has the column, and keeps them when it has not", async () => {
    await upload(header + row("cancelled 2026-10-17T09:00:00+02:00; cancelled 2026-10-24T09:00:00+02:00"));
    expect(await exceptionsOf()).toEqual(["cancelled 2026-10-17T07:00:00.000Z", "cancelled 2026-10-24T07:00:00.000Z"]);

    // One kept as it is, one changed to deleted, one removed (restored), one added: the series is updated.
    const changed = await upload(
      header + row("cancelled 2026-10-17T09:00:00+02:00; deleted 2026-10-31T09:00:00+01:00"),
    );
    expect(changed.state).toMatchObject({ stage: "done", updated: 1, unchanged: 0 });
    expect(await exceptionsOf()).toEqual(["cancelled 2026-10-17T07:00:00.000Z", "deleted 2026-10-31T08:00:00.000Z"]);

    const withoutColumn =
      "title,starts_at,location,recurring\r\n" + "Morning Yoga,2026-10-03T09:00:00+02:00,Studio 2,weekly\r\n";
    expect((await upload(withoutColumn)).state).toMatchObject({ stage: "done", updated: 0, unchanged: 1 });
    expect(await exceptionsOf()).toEqual(["cancelled 2026-10-17T07:00:00.000Z", "deleted 2026-10-31T08:00:00.000Z"]);

    await upload(header + row(""));
    expect(await exceptionsOf()).toEqual([]);
  });

  it("checks exceptions in the account's time zone, a row written for another zone by its nearest occurrence", async () => {
    const utc = await accountIn("UTC", "Elsewhere");
    await signInAs(utc.user);
    // Written in UTC for this UTC account: 08:00Z is no occurrence of a 07:00 class.
    const inUtc = "Morning Yoga,2026-10-03T07:00:00Z,Studio 2,weekly,cancelled 2026-11-14T08:00:00Z\r\n";
    const { state } = await upload(header + inUtc);
    expect(state).toMatchObject({ stage: "done", created: 0, failed: 1 });
    if (state.stage !== "done") throw new Error("not imported");
    const message = expect.stringMatching(/every Saturday, 07:00 in UTC/);
    expect(state.problems).toEqual([{ line: 2, field: "exceptions", message }]);
    // Written in Berlin: 09:00 CET on 14 November names that Saturday's class, 07:00 in UTC.
    expect((await upload(header + row("cancelled 2026-11-14T09:00:00+01:00"))).state).toMatchObject({ created: 1 });
    expect((await knowledge(utc.accountId))[0].exceptions).toEqual(["cancelled 2026-11-14T07:00:00.000Z"]);
  });
});

describe("bad recurrence and exceptions", () => {
  const file =
    "title,starts_at,location,recurring,exceptions\r\n" +
    "Good Yoga,2026-10-03T09:00:00+02:00,Studio 2,weekly,cancelled 2026-10-17T09:00:00+02:00\r\n" +
    "Off By A Minute,2026-10-03T09:00:00+02:00,Studio 2,weekly,cancelled 2026-10-17T09:01:00+02:00\r\n" +
    "First Itself,2026-10-03T09:00:00+02:00,Studio 2,weekly,deleted 2026-10-03T09:00:00+02:00\r\n" +
    "One Off,2026-10-03T09:00:00+02:00,Studio 2,,cancelled 2026-10-17T09:00:00+02:00\r\n" +
    "Capital Kind,2026-10-03T09:00:00+02:00,Studio 2,weekly,Cancelled 2026-10-17T09:00:00+02:00\r\n" +
    'Formula,2026-10-03T09:00:00+02:00,Studio 2,weekly,"=HYPERLINK(""https://evil.example"")"\r\n' +
    "Capital Recurring,2026-10-03T09:00:00+02:00,Studio 2,Weekly,\r\n" +
    "Fortnightly,2026-10-03T09:00:00+02:00,Studio 2,fortnightly,\r\n";

  it("lists each refused row in the preview by line and field", async () => {
    const { status, state } = await upload(file, { intent: "preview" });
    expect(status).toBe(200);
    expect(state).toMatchObject({ stage: "preview", total: 8, valid: 1 });
    if (state.stage !== "preview") throw new Error("no preview");
    expect(state.problems).toEqual([
      {
        line: 3,
        field: "exceptions",
        message:
          '"2026-10-17T09:01:00+02:00" is not an occurrence of this series (every Saturday, 09:00 in Europe/Berlin).',
      },
      { line: 4, field: "exceptions", message: expect.stringMatching(/first occurrence/) },
      { line: 5, field: "exceptions", message: expect.stringMatching(/Only a recurring event has exceptions/) },
      { line: 6, field: "exceptions", message: expect.stringMatching(/must be cancelled or deleted \(lower case\)/) },
      { line: 7, field: "exceptions", message: expect.stringMatching(/^"=HYPERLINK.*write each exception as/) },
      { line: 8, field: "recurring", message: 'Must be one of daily, weekly, monthly, yearly or "".' },
      { line: 9, field: "recurring", message: 'Must be one of daily, weekly, monthly, yearly or "".' },
    ]);
    expect(await knowledge(owner.accountId)).toEqual([]);
  });

  it("stores nothing of a refused row and leaves an existing series' exceptions alone", async () => {
    const earlier = "Off By A Minute,2026-10-03T09:00:00+02:00,Studio 2,weekly,cancelled 2026-10-24T07:00Z\r\n";
    await upload(file.split("\r\n")[0] + "\r\n" + earlier);
    const { state } = await upload(file);
    expect(state).toMatchObject({ stage: "done", created: 1, updated: 0, failed: 7 });
    const stored = await knowledge(owner.accountId);
    expect(stored.map((event) => [event.title, event.exceptions])).toEqual([
      ["Good Yoga", ["cancelled 2026-10-17T07:00:00.000Z"]],
      ["Off By A Minute", ["cancelled 2026-10-24T07:00:00.000Z"]],
    ]);
    expect(await db.prisma.eventException.count({ where: { accountId: owner.accountId } })).toBe(2);
  });
});

describe("the template", () => {
  it("lists the exceptions column and imports as it is, a weekly series with one cancelled occurrence", async () => {
    const text = await template().text();
    expect(text.split("\r\n")[0]).toBe(HEADER);
    expect((await upload(text)).state).toMatchObject({ stage: "done", created: 2, failed: 0 });
    const yoga = (await knowledge(owner.accountId)).find((event) => event.title === "Weekly Yoga");
    expect(yoga).toMatchObject({ recurring: "weekly", exceptions: ["cancelled 2026-05-25T18:30:00.000Z"] });
  });
});
