import { beforeEach, describe, expect, it } from "vitest";
import {
  changeLeadStageAction,
  createLeadAction,
  deleteLeadAction,
  updateLeadAction,
} from "@/app/(dashboard)/leads/actions";
import {
  addStageAction,
  moveStageAction,
  removeStageAction,
  renameStageAction,
} from "@/app/(dashboard)/settings/pipeline/actions";
import { MANAGERS_ONLY } from "@/lib/actions/action";
import { db } from "@/lib/platform/db/client";
import { createLead } from "@/lib/leads/create";
import { listLeadsTable, readBoard } from "@/lib/leads/dashboard";
import {
  addPipelineStage,
  listPipelineStages,
  MAX_STAGES,
  movePipelineStage,
  removePipelineStage,
  reorderPipelineStages,
} from "@/lib/leads/pipeline";
import { createLeadSchema } from "@/lib/leads/schemas";
import { changeLeadStage } from "@/lib/leads/update";
import { addMember, createAccount, signedInOwner } from "../support/factories";
import { signInAs, signOut } from "../support/request-context";

/*
 * The Leads dashboard's server actions and the pipeline's domain functions against the real database:
 * who may call them, what they store, and the audit entries they leave.
 */

const system = (accountId: string) => ({ accountId, actor: { type: "system" as const } });

async function seedLead(accountId: string, fields: Record<string, unknown>) {
  const result = await createLead(system(accountId), createLeadSchema.parse(fields));
  if (!result.ok) throw new Error(`seed refused: ${result.code}`);
  return result.lead;
}

const stageKeys = async (accountId: string) => (await listPipelineStages(accountId)).map((stage) => stage.key);
const auditOf = (accountId: string, action: string) =>
  db.prisma.auditLog.findMany({ where: { accountId, action }, orderBy: { createdAt: "asc" } });
const leadRow = (id: string) => db.prisma.lead.findFirst({ where: { id } });

function form(values: Record<string, string>) {
  const data = new FormData();
  for (const [name, value] of Object.entries(values)) data.set(name, value);
  return data;
}

beforeEach(() => signOut());

describe("lead actions", () => {
  it("refuse members and change nothing: create, edit, stage change, delete", async () => {
    const owner = await createAccount();
    const lead = await seedLead(owner.accountId, { name: "Ada", email: "ada@example.test" });
    await signInAs(await addMember(owner.accountId, "member"));

    const results = [
      await createLeadAction(form({ name: "Grace" })),
      await updateLeadAction(form({ leadId: lead.id, name: "Changed" })),
      await changeLeadStageAction({ leadId: lead.id, stage: "won" }),
      await deleteLeadAction({ leadId: lead.id }),
    ];
    for (const result of results) expect(result).toEqual({ ok: false, error: MANAGERS_ONLY });
    expect(await leadRow(lead.id)).toMatchObject({ name: "Ada", stage: "new" });
    expect(await db.prisma.lead.count({ where: { accountId: owner.accountId } })).toBe(1);
    expect(await db.prisma.auditLog.count({ where: { accountId: owner.accountId, targetType: "lead" } })).toBe(0);
  });

  it("lets an admin create a lead with the dashboard as its source", async () => {
    const owner = await createAccount();
    await signInAs(await addMember(owner.accountId, "admin"));
    const result = await createLeadAction(
      form({ name: "  Grace Hopper ", email: "Grace@Example.test", company: "Navy", stage: "contacted" }),
    );
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(await leadRow(result.data.id)).toMatchObject({
      name: "Grace Hopper",
      email: "grace@example.test",
      company: "Navy",
      stage: "contacted",
      source: "dashboard",
    });
  });

  it("answers field errors from the domain: nothing to identify the lead, a bad email, a duplicate email", async () => {
    const owner = await createAccount();
    await seedLead(owner.accountId, { email: "taken@example.test" });
    await signInAs(owner.user);

    const empty = await createLeadAction(form({ company: "Acme" }));
    expect(empty).toMatchObject({
      ok: false,
      fieldErrors: { name: ["Enter at least a name, an email or a phone number."] },
    });
    const invalid = await createLeadAction(form({ name: "X", email: "not-an-email" }));
    expect(invalid).toMatchObject({ ok: false, fieldErrors: { email: ["Must be a valid email address."] } });

    const other = await seedLead(owner.accountId, { name: "Other", email: "other@example.test" });
    const duplicate = await updateLeadAction(form({ leadId: other.id, name: "Other", email: "TAKEN@example.test" }));
    expect(duplicate).toMatchObject({ ok: false, fieldErrors: { email: ["Another lead already has this email."] } });
    expect(await leadRow(other.id)).toMatchObject({ email: "other@example.test" });
    expect(await db.prisma.lead.count({ where: { accountId: owner.accountId } })).toBe(2);
  });

  it("edits the form's fields and clears the ones left empty", async () => {
    const owner = await createAccount();
    const lead = await seedLead(owner.accountId, {
      name: "Ada",
      phone: "+44 1",
      company: "Engines",
      metadata: { plan: "pro" },
    });
    await signInAs(owner.user);
    const result = await updateLeadAction(
      form({
        leadId: lead.id,
        name: "Ada Lovelace",
        email: "ada@example.test",
        phone: "",
        company: "Analytical",
        notes: "Met at the fair",
      }),
    );
    expect(result.ok).toBe(true);
    expect(await leadRow(lead.id)).toMatchObject({
      name: "Ada Lovelace",
      email: "ada@example.test",
      phone: null,
      company: "Analytical",
      notes: "Met at the fair",
      metadata: { plan: "pro" },
    });
  });

  it("moves a lead to another stage, sets stage_changed_at and writes the audit entry", async () => {
    const owner = await createAccount();
    const lead = await seedLead(owner.accountId, { name: "Ada" });
    await signInAs(owner.user);
    const result = await changeLeadStageAction({ leadId: lead.id, stage: "qualified" });
    expect(result).toEqual({ ok: true, data: { id: lead.id, stage: "qualified" } });

    const row = await leadRow(lead.id);
    expect(row?.stage).toBe("qualified");
    expect(row!.stageChangedAt.getTime()).toBeGreaterThan(lead.stageChangedAt.getTime());
    expect(await auditOf(owner.accountId, "lead.stage_changed")).toEqual([
      expect.objectContaining({
        actorId: owner.user.id,
        actorLabel: `${owner.user.name} <${owner.user.email}>`,
        targetType: "lead",
        targetId: lead.id,
        targetLabel: "Ada",
        metadata: { from: "New", to: "Qualified", fromKey: "new", toKey: "qualified" },
      }),
    ]);
  });

  it("refuses an unknown stage and another account's lead without changing anything", async () => {
    const owner = await createAccount();
    const stranger = await createAccount("Mallory");
    const theirs = await seedLead(stranger.accountId, { name: "Theirs" });
    const mine = await seedLead(owner.accountId, { name: "Mine" });
    await signInAs(owner.user);

    expect(await changeLeadStageAction({ leadId: mine.id, stage: "nope" })).toMatchObject({
      ok: false,
      error: "That stage no longer exists. Reload the page.",
    });
    expect(await changeLeadStageAction({ leadId: theirs.id, stage: "won" })).toMatchObject({
      ok: false,
      error: "This lead no longer exists.",
    });
    expect(await deleteLeadAction({ leadId: theirs.id })).toMatchObject({ ok: false });
    expect(await updateLeadAction(form({ leadId: theirs.id, name: "Hijacked" }))).toMatchObject({ ok: false });
    expect(await leadRow(theirs.id)).toMatchObject({ name: "Theirs", stage: "new" });
    expect((await leadRow(mine.id))?.stage).toBe("new");
    expect(
      await db.prisma.auditLog.count({
        where: { targetType: "lead", accountId: { in: [owner.accountId, stranger.accountId] } },
      }),
    ).toBe(0);
  });

  it("deletes a lead and records who did it", async () => {
    const owner = await createAccount();
    const lead = await seedLead(owner.accountId, { email: "gone@example.test" });
    await signInAs(owner.user);
    expect(await deleteLeadAction({ leadId: lead.id })).toEqual({
      ok: true,
      data: { message: "Deleted “gone@example.test”." },
    });
    expect(await leadRow(lead.id)).toBeNull();
    expect(await auditOf(owner.accountId, "lead.deleted")).toEqual([
      expect.objectContaining({ actorId: owner.user.id, targetId: lead.id, targetLabel: "gone@example.test" }),
    ]);
  });
});

describe("pipeline", () => {
  it("refuses members every edit", async () => {
    const owner = await createAccount();
    await signInAs(await addMember(owner.accountId, "member"));
    const results = [
      await addStageAction({ label: "Proposal" }),
      await renameStageAction({ key: "new", label: "Fresh" }),
      await moveStageAction({ key: "won", direction: "up" }),
      await removeStageAction({ key: "lost" }),
    ];
    for (const result of results) expect(result).toEqual({ ok: false, error: MANAGERS_ONLY });
    expect(await listPipelineStages(owner.accountId)).toEqual([
      { key: "new", label: "New", position: 0 },
      { key: "contacted", label: "Contacted", position: 1 },
      { key: "qualified", label: "Qualified", position: 2 },
      { key: "won", label: "Won", position: 3 },
      { key: "lost", label: "Lost", position: 4 },
    ]);
  });

  it("adds a stage at the end with a key derived from its label, unique in the pipeline", async () => {
    const owner = await signedInOwner();
    expect(await addStageAction({ label: " Proposal  sent " })).toMatchObject({ ok: true });
    expect(await addStageAction({ label: "Négociation" })).toMatchObject({ ok: true });
    await db.pool.query("UPDATE pipeline_stages SET label = 'Old new' WHERE account_id = $1 AND key = 'new'", [
      owner.accountId,
    ]);
    expect(await addStageAction({ label: "New" })).toMatchObject({ ok: true });
    const stages = await listPipelineStages(owner.accountId);
    expect(stages.slice(5)).toEqual([
      { key: "proposal_sent", label: "Proposal sent", position: 5 },
      { key: "negociation", label: "Négociation", position: 6 },
      { key: "new_2", label: "New", position: 7 },
    ]);
    expect((await auditOf(owner.accountId, "pipeline.stage_added")).map((entry) => entry.targetId)).toEqual([
      "proposal_sent",
      "negociation",
      "new_2",
    ]);
  });

  it("refuses an empty label, a label already used, and a stage beyond the 20th", async () => {
    const owner = await signedInOwner();
    expect(await addStageAction({ label: "   " })).toMatchObject({
      ok: false,
      fieldErrors: { label: ["Enter a name for the stage."] },
    });
    expect(await addStageAction({ label: "won" })).toMatchObject({
      ok: false,
      fieldErrors: { label: ["A stage named “won” already exists."] },
    });
    for (let index = 5; index < MAX_STAGES; index += 1)
      expect((await addPipelineStage(system(owner.accountId), `Stage ${index}`)).ok).toBe(true);
    expect(await addStageAction({ label: "One too many" })).toEqual({
      ok: false,
      error: "A pipeline has at most 20 stages.",
    });
    expect(await listPipelineStages(owner.accountId)).toHaveLength(MAX_STAGES);
  });

  it("renames a stage's label and keeps its key, with the previous label in the audit entry", async () => {
    const owner = await createAccount();
    const lead = await seedLead(owner.accountId, { name: "Ada", stage: "contacted" });
    await signInAs(owner.user);
    expect(await renameStageAction({ key: "contacted", label: "Reached out" })).toMatchObject({ ok: true });
    expect((await listPipelineStages(owner.accountId))[1]).toEqual({
      key: "contacted",
      label: "Reached out",
      position: 1,
    });
    expect((await leadRow(lead.id))?.stage).toBe("contacted");
    expect(await auditOf(owner.accountId, "pipeline.stage_renamed")).toEqual([
      expect.objectContaining({
        targetId: "contacted",
        targetLabel: "Reached out",
        metadata: { previousLabel: "Contacted" },
      }),
    ]);
  });

  it("moves a stage up and down, and refuses a reorder that does not name every stage once", async () => {
    const owner = await signedInOwner();
    expect(await moveStageAction({ key: "won", direction: "up" })).toMatchObject({ ok: true });
    expect(await stageKeys(owner.accountId)).toEqual(["new", "contacted", "won", "qualified", "lost"]);
    expect(await moveStageAction({ key: "new", direction: "down" })).toMatchObject({ ok: true });
    expect(await stageKeys(owner.accountId)).toEqual(["contacted", "new", "won", "qualified", "lost"]);
    // At the top already: nothing changes, nothing is recorded.
    expect(await moveStageAction({ key: "contacted", direction: "up" })).toMatchObject({ ok: true });
    expect(await auditOf(owner.accountId, "pipeline.stages_reordered")).toHaveLength(2);

    const stale = await reorderPipelineStages(system(owner.accountId), ["new", "contacted", "won", "qualified"]);
    expect(stale).toMatchObject({ ok: false, code: "conflict" });
    const repeated = await reorderPipelineStages(system(owner.accountId), ["new", "new", "won", "qualified", "lost"]);
    expect(repeated).toMatchObject({ ok: false, code: "conflict" });
    expect(await stageKeys(owner.accountId)).toEqual(["contacted", "new", "won", "qualified", "lost"]);
  });

  it("applies quick moves of one stage one after the other, so a later one does not undo an earlier one", async () => {
    const owner = await signedInOwner();
    const moves = Array.from({ length: 4 }, () => movePipelineStage(system(owner.accountId), "lost", "up"));
    expect(await Promise.all(moves)).toMatchObject([{ ok: true }, { ok: true }, { ok: true }, { ok: true }]);
    expect(await stageKeys(owner.accountId)).toEqual(["lost", "new", "contacted", "qualified", "won"]);
  });

  it("refuses to remove a stage in use and says how many leads hold it", async () => {
    const owner = await createAccount();
    for (const name of ["A", "B", "C"]) await seedLead(owner.accountId, { name, stage: "won" });
    await signInAs(owner.user);
    expect(await removeStageAction({ key: "won" })).toEqual({
      ok: false,
      error: "3 leads are in this stage. Move them to another stage first.",
    });
    expect(await stageKeys(owner.accountId)).toContain("won");
    expect(await auditOf(owner.accountId, "pipeline.stage_removed")).toEqual([]);
  });

  it("removes an unused stage, closes the gap in positions and records it; the last stage stays", async () => {
    const owner = await signedInOwner();
    expect(await removeStageAction({ key: "contacted" })).toMatchObject({ ok: true });
    expect((await listPipelineStages(owner.accountId)).map((stage) => stage.position)).toEqual([0, 1, 2, 3]);
    expect(await auditOf(owner.accountId, "pipeline.stage_removed")).toEqual([
      expect.objectContaining({ targetId: "contacted", targetLabel: "Contacted" }),
    ]);
    for (const key of ["qualified", "won", "lost"])
      expect((await removePipelineStage(system(owner.accountId), key)).ok).toBe(true);
    expect(await removeStageAction({ key: "new" })).toEqual({
      ok: false,
      error: "A pipeline needs at least one stage.",
    });
    expect(await stageKeys(owner.accountId)).toEqual(["new"]);
  });

  it("never leaves a lead in a removed stage when a lead insert races the removal", async () => {
    const owner = await createAccount();
    const rounds = 15;
    for (let round = 0; round < rounds; round += 1) {
      const stage = await addPipelineStage(system(owner.accountId), `Race ${round}`);
      if (!stage.ok) throw new Error("stage not added");
      const key = `race_${round}`;
      const [insert, removal] = await Promise.all([
        createLead(system(owner.accountId), createLeadSchema.parse({ name: `Racer ${round}`, stage: key })),
        removePipelineStage(system(owner.accountId), key),
      ]);
      // Exactly one of them wins: the lead is in the stage and the stage stays, or the stage is gone and the insert was
      // refused.
      expect(insert.ok).not.toBe(removal.ok);
    }
    const { rows } = await db.pool.query(
      "SELECT id FROM leads l WHERE account_id = $1 AND NOT EXISTS (SELECT 1 FROM " +
        "pipeline_stages s WHERE s.account_id = l.account_id AND s.key = l.stage)",
      [owner.accountId],
    );
    expect(rows).toEqual([]);
  });
});

describe("stage removal and lead writes of other accounts", () => {
  /** Until a backend waits for a lock in a statement starting with `prefix`. */
  async function waitForLockWait(prefix: string): Promise<void> {
    for (let attempt = 0; attempt < 200; attempt += 1) {
      const { rowCount } = await db.pool.query(
        "SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND ltrim(query) LIKE $1",
        [`${prefix}%`],
      );
      if (rowCount) return;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error(`nothing waited in ${prefix}`);
  }

  const settledWithin = (promise: Promise<unknown>, ms: number) =>
    Promise.race([promise.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms))]);

  it("holds back only its own account's lead writes while it runs", async () => {
    const owner = await createAccount();
    const other = await createAccount("Elsewhere Ltd");
    // Stall the removal at its last step, its audit entry (whose foreign key check waits for this row lock),
    // when it has checked and deleted the stage and still holds whatever it serialises lead writes with.
    const blocker = await db.pool.connect();
    let removal: ReturnType<typeof removePipelineStage> | undefined;
    try {
      await blocker.query("BEGIN");
      await blocker.query("SELECT 1 FROM accounts WHERE id = $1 FOR UPDATE", [owner.accountId]);
      removal = removePipelineStage(system(owner.accountId), "lost");
      removal.catch(() => {}); // Awaited below; a failure must not surface as an unhandled rejection first.
      await waitForLockWait("INSERT INTO audit_log");

      const started = Date.now();
      const elsewhere = await createLead(
        system(other.accountId),
        createLeadSchema.parse({ name: "Not held back", stage: "lost" }),
      );
      expect(elsewhere.ok).toBe(true);
      expect(Date.now() - started).toBeLessThan(1_000);
      const moved = await seedLead(other.accountId, { name: "Moved" });
      expect((await changeLeadStage(system(other.accountId), moved.id, "lost")).ok).toBe(true);

      const sameAccount = createLead(
        system(owner.accountId),
        createLeadSchema.parse({ name: "Too late", stage: "lost" }),
      );
      expect(await settledWithin(sameAccount, 300)).toBe(false);
      await blocker.query("COMMIT");
      expect(await removal).toMatchObject({ ok: true });
      expect(await sameAccount).toMatchObject({ ok: false, code: "invalid" });
    } finally {
      await blocker.query("ROLLBACK").catch(() => {});
      blocker.release();
      await removal?.catch(() => {});
    }
    expect(await stageKeys(owner.accountId)).not.toContain("lost");
  });
});

describe("dashboard reads", () => {
  it("pages the table both ways over the same rows", async () => {
    const owner = await createAccount();
    for (let index = 0; index < 7; index += 1) await seedLead(owner.accountId, { name: `Lead ${index}` });
    // Leads made in one millisecond are ordered by id: the expected order is the keyset's own.
    const ordered = await db.prisma.lead.findMany({
      where: { accountId: owner.accountId },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    });
    const ids = ordered.map((lead) => lead.id);
    const first = await listLeadsTable(owner.accountId, { limit: 3 });
    expect(first.leads.map((lead) => lead.id)).toEqual(ids.slice(0, 3));
    expect(first.prevCursor).toBeNull();
    const second = await listLeadsTable(owner.accountId, { limit: 3, cursor: first.nextCursor!, dir: "next" });
    expect(second.leads.map((lead) => lead.id)).toEqual(ids.slice(3, 6));
    const third = await listLeadsTable(owner.accountId, { limit: 3, cursor: second.nextCursor!, dir: "next" });
    expect(third.leads.map((lead) => lead.id)).toEqual(ids.slice(6));
    expect(third.nextCursor).toBeNull();
    const back = await listLeadsTable(owner.accountId, { limit: 3, cursor: third.prevCursor!, dir: "prev" });
    expect(back.leads.map((lead) => lead.id)).toEqual(ids.slice(3, 6));
    const top = await listLeadsTable(owner.accountId, { limit: 3, cursor: back.prevCursor!, dir: "prev" });
    expect(top).toEqual(first);
  });

  it("reads the board: every stage in order, the newest leads of each, and whether there are more", async () => {
    const owner = await createAccount();
    for (let index = 0; index < 4; index += 1) {
      const lead = await seedLead(owner.accountId, { name: `Won ${index}`, stage: "won" });
      // Distinct creation times: two leads created in the same millisecond have no defined order.
      await db.pool.query("UPDATE leads SET created_at = created_at - make_interval(secs => $2) WHERE id = $1", [
        lead.id,
        10 - index,
      ]);
    }
    await seedLead(owner.accountId, { name: "Fresh" });
    const board = await readBoard(owner.accountId, 3);
    expect(board.map((column) => [column.key, column.leads.length, column.hasMore])).toEqual([
      ["new", 1, false],
      ["contacted", 0, false],
      ["qualified", 0, false],
      ["won", 3, true],
      ["lost", 0, false],
    ]);
    expect(board[3].leads.map((lead) => lead.name)).toEqual(["Won 3", "Won 2", "Won 1"]);
  });
});
