import { beforeEach, describe, expect, it } from "vitest";
import { GET as exportRoute } from "@/app/(dashboard)/leads/export/route";
import { POST } from "@/app/(dashboard)/leads/import/route";
import { db } from "@/lib/platform/db/client";
import { createLead } from "@/lib/leads/create";
import { createLeadSchema } from "@/lib/leads/schemas";
import { addMember, signedInOwner, type TestAccount } from "../support/factories";
import { csvImportRoute } from "../support/csv-upload";
import { signInAs } from "../support/request-context";

/* Leads CSV: the export (formula cells neutralised) and the import on the shared upload flow. */

const { upload } = csvImportRoute(POST, "/leads/import", "leads.csv");

async function exportCsv(query = ""): Promise<string> {
  const response = await exportRoute(new Request(`http://localhost:3000/leads/export${query}`));
  expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
  return (await response.text()).replace(/^\uFEFF/, "");
}

const leadsOf = (accountId: string) => db.prisma.lead.findMany({ where: { accountId }, orderBy: { email: "asc" } });
const seed = (accountId: string, fields: Record<string, unknown>) =>
  createLead({ accountId, actor: { type: "system" } }, createLeadSchema.parse(fields));

let owner: TestAccount;
beforeEach(async () => {
  owner = await signedInOwner();
});

describe("export", () => {
  it("neutralises cells a spreadsheet would run as formulas, and filters like the table", async () => {
    await seed(owner.accountId, {
      name: '=HYPERLINK("https://evil.example")',
      email: "a@example.test",
      phone: "+44 1",
      company: "@corp",
      notes: "-1 discount",
      stage: "won",
    });
    await seed(owner.accountId, { name: "Plain", stage: "new" });
    const lines = (await exportCsv("?stage=won")).trim().split("\r\n");
    expect(lines[0]).toBe(
      "id,name,email,phone,company,stage,source,notes,metadata,created_at,updated_at,stage_changed_at",
    );
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(`"'=HYPERLINK(""https://evil.example"")"`);
    expect(lines[1]).toContain(",'+44 1,'@corp,won,");
    expect(lines[1]).toContain(",'-1 discount,");
  });
});

describe("import", () => {
  const file = [
    "name,email,company,stage,metadata",
    "Ada,ada@example.test,Engines,Qualified,",
    "Bad email,not-an-email,,,",
    ",,Nobody,,",
    "Wrong stage,w@example.test,,Negotiation,",
    'Bad metadata,m@example.test,,,"[1,2]"',
    'Grace,grace@example.test,Navy,,"{""plan"":""pro""}"',
  ]
    .map((line) => `${line}\r\n`)
    .join("");

  it("previews with per-row errors and stores nothing", async () => {
    const { status, state } = await upload(file, { intent: "preview" });
    expect(status).toBe(200);
    if (state.stage !== "preview") throw new Error(`not a preview: ${JSON.stringify(state)}`);
    expect(state).toMatchObject({ total: 6, valid: 2, columns: ["Name", "Email", "Company", "Stage"] });
    expect(state.rows[0]).toEqual({
      line: 2,
      cells: ["Ada", "ada@example.test", "Engines", "Qualified"],
      problems: [],
    });
    expect(state.problems).toEqual([
      { line: 3, field: "email", message: "Must be a valid email address." },
      { line: 4, field: "name", message: "Give at least a name, an email or a phone." },
      { line: 5, field: "stage", message: "Unknown stage “Negotiation”. Use a stage of Settings → Pipeline." },
      { line: 6, field: "metadata", message: "Must be a JSON object of string values." },
    ]);
    expect(await leadsOf(owner.accountId)).toEqual([]);
  });

  it("creates the valid rows with source import, stage by label or key, and records the import", async () => {
    const { state } = await upload(file);
    expect(state).toMatchObject({ stage: "done", created: 2, updated: 0, failed: 4 });
    expect(await leadsOf(owner.accountId)).toMatchObject([
      {
        name: "Ada",
        email: "ada@example.test",
        company: "Engines",
        stage: "qualified",
        source: "import",
        metadata: {},
      },
      { name: "Grace", email: "grace@example.test", stage: "new", metadata: { plan: "pro" } },
    ]);
    const audit = await db.prisma.auditLog.findMany({
      where: { accountId: owner.accountId, action: "leads.imported" },
    });
    expect(audit).toEqual([
      expect.objectContaining({
        actorId: owner.user.id,
        targetLabel: "leads.csv",
        metadata: expect.objectContaining({ created: 2, failed: 4 }),
      }),
    ]);
  });

  it("updates the lead an email names and changes nothing when an export is imported back", async () => {
    await seed(owner.accountId, { name: "Ada", email: "ada@example.test", phone: "+44 1", metadata: { a: "1" } });
    const first = await upload(
      'name,email,company,stage,metadata\r\nAda L.,ADA@example.test,Engines,won,"{""b"":""2""}"\r\n',
    );
    expect(first.state).toMatchObject({ stage: "done", created: 0, updated: 1, failed: 0 });
    const [lead] = await leadsOf(owner.accountId);
    expect(lead).toMatchObject({
      name: "Ada L.",
      phone: "+44 1",
      company: "Engines",
      stage: "won",
      metadata: { a: "1", b: "2" },
    });

    const before = await leadsOf(owner.accountId);
    const again = await upload(await exportCsv());
    expect(again.state).toMatchObject({ stage: "done", created: 0, updated: 1, failed: 0 });
    const after = await leadsOf(owner.accountId);
    const withoutUpdatedAt = (leads: typeof before) => leads.map((lead) => ({ ...lead, updatedAt: null }));
    expect(withoutUpdatedAt(after)).toEqual(withoutUpdatedAt(before));
  });

  it("refuses members", async () => {
    await signInAs(await addMember(owner.accountId, "member"));
    const { status, state } = await upload(file);
    expect(status).toBe(403);
    expect(state).toEqual({ stage: "error", message: "Only owners and admins can do this." });
    expect(await leadsOf(owner.accountId)).toEqual([]);
  });
});
