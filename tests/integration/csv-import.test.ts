import { beforeEach, describe, expect, it } from "vitest";
import { POST } from "@/app/(dashboard)/knowledge/events/import/route";
import { db } from "@/lib/platform/db/client";
import { exportEventsCsv } from "@/lib/events/csv-export";
import { parseEventsCsv } from "@/lib/events/csv-format";
import { importEvents, validateCsvRow, type ValidRow } from "@/lib/events/csv-import";
import { MAX_UPLOADS_PER_PROCESS } from "@/lib/events/csv-upload";
import { createEvent } from "@/lib/events/repository";
import { addMember, signedInOwner, type TestAccount } from "../support/factories";
import { csvImportRoute } from "../support/csv-upload";
import { signInAs, signOut } from "../support/request-context";
import { eventsOf } from "../support/stored";

/* The dashboard's CSV upload route: preview and import, caps, one upload per account, audit. */

const MiB = 1024 * 1024;
const mixed =
  "title,starts_at,location,price\r\n" +
  "Good one,2027-01-01T10:00:00Z,Berlin,Free\r\n" +
  "Bad date,tomorrow,Paris,\r\n" +
  ",2027-02-01T10:00:00Z,Rome,\r\n" +
  '"Quoted, with comma",2027-03-01T10:00:00+01:00,"Line\nbreak",\r\n';

const { post, upload } = csvImportRoute(POST, "/knowledge/events/import", "events €.csv");

/** A request body that hands out `chunks` of text on demand and records how many were read. */
function streamed(chunks: () => Iterator<string>) {
  const encoder = new TextEncoder();
  const read = { chunks: 0, cancelled: false };
  const iterator = chunks();
  let release: () => void = () => {};
  const gate = {
    wait: Promise.resolve(),
    hold() {
      this.wait = new Promise<void>((resolve) => (release = resolve));
    },
    open: () => release(),
  };
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        await gate.wait;
        const next = iterator.next();
        if (next.done) controller.close();
        else {
          read.chunks++;
          controller.enqueue(encoder.encode(next.value));
        }
      },
      cancel() {
        read.cancelled = true;
      },
    },
    { highWaterMark: 0 },
  );
  return { body, read, gate };
}

/** Waits until an upload of the account holds its lease (it is then waiting for its body). */
async function leaseTaken(accountId: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const lease = await db.pool.query("SELECT 1 FROM rate_limits WHERE key = $1", [`csv-upload:${accountId}`]);
    if (lease.rowCount) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error("the upload never took its lease");
}

let owner: TestAccount;
beforeEach(async () => {
  owner = await signedInOwner();
});

describe("preview and import", () => {
  it("previews valid and invalid rows with line numbers without storing anything", async () => {
    const { status, state } = await upload(mixed, { intent: "preview" });
    expect(status).toBe(200);
    expect(state).toMatchObject({ stage: "preview", fileName: "events €.csv", total: 4, valid: 2 });
    if (state.stage !== "preview") throw new Error("no preview");
    expect(state.problems).toEqual([
      { line: 3, field: "starts_at", message: expect.stringMatching(/ISO 8601/) },
      { line: 4, field: "title", message: "Must not be empty." },
    ]);
    expect(state.rows.map((row) => [row.line, row.cells[0], row.problems.length])).toEqual([
      [2, "Good one", 0],
      [3, "Bad date", 1],
      [4, "", 1],
      [5, "Quoted, with comma", 0],
    ]);
    expect(await eventsOf(owner.accountId)).toHaveLength(0);
  });

  it("imports valid rows as upserts, counts created, unchanged and failed, and records it in the audit log", async () => {
    expect((await upload(mixed)).state).toMatchObject({ stage: "done", created: 2, updated: 0, failed: 2 });
    const written = (await eventsOf(owner.accountId)).map((event) => event.updatedAt);
    // The same file again changes nothing: no event is written, so none is counted as updated.
    expect((await upload(mixed)).state).toMatchObject({
      stage: "done",
      created: 0,
      updated: 0,
      unchanged: 2,
      failed: 2,
    });
    expect((await eventsOf(owner.accountId)).map((event) => event.updatedAt)).toEqual(written);
    expect(await eventsOf(owner.accountId)).toMatchObject([
      { title: "Good one", location: "Berlin", price: "Free" },
      { title: "Quoted, with comma", location: "Line\nbreak", startsAt: new Date("2027-03-01T09:00:00Z") },
    ]);
    const audit = await db.prisma.auditLog.findMany({
      where: { accountId: owner.accountId, action: "events.imported" },
      orderBy: { createdAt: "asc" },
    });
    expect(audit).toHaveLength(2);
    expect(audit[0]).toMatchObject({
      actorId: owner.user.id,
      targetType: "account",
      targetLabel: "events €.csv",
      metadata: { rows: 4, created: 2, updated: 0, failed: 2 },
    });
  });

  it("imports exported cells that start with =, +, - or @ exactly as they were stored", async () => {
    const values = {
      title: '=HYPERLINK("https://evil.example")',
      starts_at: "2027-05-01T10:00:00Z",
      location: "@home",
      price: "-5",
      description: "'=already quoted",
    };
    expect((await createEvent(owner.accountId, values)).ok).toBe(true);
    const exported = await new Response(exportEventsCsv(owner.accountId, {})).text();
    expect(exported).toContain(`"'=HYPERLINK(""https://evil.example"")"`);
    expect(exported).toContain(",'@home,");
    expect(exported).toContain(",'-5,");

    const other = await signedInOwner("Importer");
    expect((await upload(exported)).state).toMatchObject({ stage: "done", created: 1, failed: 0 });
    expect(await eventsOf(other.accountId)).toMatchObject([
      { title: values.title, location: "@home", price: "-5", description: "'=already quoted" },
    ]);
  });
});

describe("caps", () => {
  it("refuses a declared Content-Length over 5 MiB with 413 without reading the body", async () => {
    const { body, read } = streamed(function* () {
      for (;;) yield "x".repeat(64 * 1024);
    });
    const response = await post(body, { headers: { "Content-Length": String(5 * MiB + 1) } });
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ stage: "error", message: expect.stringMatching(/5 MiB/) });
    expect(read.chunks).toBe(0);
  });

  it("stops reading a body without Content-Length at the first chunk past 5 MiB and answers 413", async () => {
    const { body, read } = streamed(function* () {
      yield "title,starts_at\n";
      for (;;) yield "A," + "x".repeat(64 * 1024 - 3) + "\n";
    });
    const { status, state } = await upload(body);
    expect(status).toBe(413);
    expect(state).toMatchObject({ stage: "error", message: expect.stringMatching(/5 MiB/) });
    expect(read.chunks).toBeLessThanOrEqual(5 * 16 + 3);
    expect(read.cancelled).toBe(true);
  });

  it("stops at row 100,001 with a clear error and stores nothing", async () => {
    const { body, read } = streamed(function* () {
      yield "title,starts_at\n";
      for (;;) yield "A,2027-01-01T10:00:00Z\n".repeat(1_000);
    });
    const { status, state } = await upload(body);
    expect(status).toBe(400);
    expect(state).toMatchObject({
      stage: "error",
      message: "The file has more than 100,000 rows. Split it into smaller files.",
    });
    expect(read.chunks).toBeLessThanOrEqual(102 + 2);
    expect(await eventsOf(owner.accountId)).toHaveLength(0);
  });

  it("stops creating at the plan's event limit but still applies updates", async () => {
    const rows = async (count: number, from = 0, description = "") => {
      const valid: ValidRow[] = [];
      const text =
        "title,starts_at,description\n" +
        Array.from({ length: count }, (_, index) => `Event ${from + index},2027-01-01T10:00:00Z,${description}`).join(
          "\n",
        ) +
        "\n";
      const parsed = await parseEventsCsv(text, {
        onRow: (row) => {
          const result = validateCsvRow(row);
          if (result.ok) valid.push(result.row);
        },
      });
      if (!parsed.ok) throw new Error(parsed.message);
      return valid;
    };
    expect(await importEvents(owner.accountId, await rows(998))).toMatchObject({ created: 998, failed: 0 });
    const summary = await importEvents(owner.accountId, await rows(5, 996, "Doors at 9"));
    expect(summary).toMatchObject({ created: 2, updated: 2, failed: 1 });
    expect(summary.problems).toEqual([{ line: 6, message: expect.stringMatching(/limit of 1,000 events/) }]);
    expect(await db.prisma.event.count({ where: { accountId: owner.accountId } })).toBe(1000);
  });
});

describe("one upload at a time per account", () => {
  it("refuses a second upload with 409 while one runs, lets other accounts in, and allows the next after", async () => {
    const slow = streamed(function* () {
      yield "title,starts_at\n";
      yield "Slow,2027-01-01T10:00:00Z\n";
    });
    slow.gate.hold();
    const first = upload(slow.body);
    await leaseTaken(owner.accountId);
    const second = await upload(mixed, { intent: "preview" });
    expect(second.status).toBe(409);
    expect(second.state).toMatchObject({
      stage: "error",
      message: expect.stringMatching(/Another CSV import or preview is running/),
    });

    await signedInOwner("Elsewhere"); // another account's owner
    expect((await upload(mixed, { intent: "preview" })).status).toBe(200);
    await signInAs(owner.user);

    slow.gate.open();
    expect(await first).toMatchObject({ status: 200, state: { stage: "done", created: 1 } });
    expect((await upload(mixed, { intent: "preview" })).status).toBe(200);
  });

  it("runs at most four uploads at once per process and answers 503 to a fifth", async () => {
    // One after the other: the session is per test process, so each upload must read it before the next sign-in.
    const held = [];
    for (let i = 0; i < MAX_UPLOADS_PER_PROCESS; i++) {
      const account = await signedInOwner("Parallel");
      const slow = streamed(function* () {
        yield "title,starts_at\nSlow,2027-01-01T10:00:00Z\n";
      });
      slow.gate.hold();
      const pending = upload(slow.body, { intent: "preview" });
      await leaseTaken(account.accountId);
      held.push({ slow, pending });
    }
    await signInAs(owner.user);
    expect(await upload(mixed, { intent: "preview" })).toMatchObject({
      status: 503,
      state: { stage: "error", message: expect.stringMatching(/Too many CSV imports/) },
    });
    for (const { slow } of held) slow.gate.open();
    for (const { pending } of held) expect((await pending).status).toBe(200);
    expect((await upload(mixed, { intent: "preview" })).status).toBe(200);
  });
});

describe("who may upload", () => {
  it("answers 401 without a session, 403 to members and to a cross-site post, storing nothing", async () => {
    signOut();
    expect((await upload(mixed)).status).toBe(401);
    await signInAs(await addMember(owner.accountId, "member"));
    expect((await upload(mixed)).status).toBe(403);
    await signInAs(owner.user);
    expect((await upload(mixed, { headers: { Origin: "https://evil.example", Host: "localhost:3000" } })).status).toBe(
      403,
    );
    expect((await upload(mixed, { headers: { "Sec-Fetch-Site": "cross-site" } })).status).toBe(403);
    expect(await eventsOf(owner.accountId)).toHaveLength(0);
    expect((await upload(mixed, { headers: { Origin: "http://localhost:3000", Host: "localhost:3000" } })).status).toBe(
      200,
    );
  });
});
