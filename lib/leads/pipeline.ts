import "server-only";
import { recordAuditSql } from "@/lib/audit/record";
import { db } from "@/lib/platform/db/client";
import type { Prisma } from "@/lib/platform/db/generated/client";
import type { Failure } from "@/lib/platform/result";
import { stageInUseMessage } from "./display";
import type { LeadContext } from "./model";
import { checkStageLabel, deriveStageKey, MAX_STAGES, type PipelineStage } from "./pipeline-rules";
import { inTransaction, readStages, type Queryable } from "./sql";

export { MAX_STAGES, STAGE_LABEL_MAX, type PipelineStage } from "./pipeline-rules";

/*
 * An account's pipeline: ordered stages (key, label). Leads hold a stage key, which never changes once
 * given (API clients store it); renaming changes the label only.
 *
 * Every edit locks the account's stage rows first (FOR UPDATE), so edits of one pipeline run one after
 * the other: the "at most 20" and "at least one" rules and the positions cannot be raced. Each edit and
 * its audit entry commit together.
 */

export const DEFAULT_STAGES = [
  { key: "new", label: "New" },
  { key: "contacted", label: "Contacted" },
  { key: "qualified", label: "Qualified" },
  { key: "won", label: "Won" },
  { key: "lost", label: "Lost" },
] as const;

export type PipelineEditResult =
  | { ok: true; stages: PipelineStage[] }
  | Failure<"invalid" | "not_found" | "conflict" | "last_stage" | "too_many">
  | (Failure<"in_use"> & { count: number });

/** Run for every new account, inside its sign-up transaction. */
export async function createDefaultPipeline(tx: Prisma.TransactionClient, accountId: string): Promise<void> {
  await tx.pipelineStage.createMany({
    data: DEFAULT_STAGES.map((stage, position) => ({ accountId, ...stage, position })),
  });
}

export async function listPipelineStages(accountId: string): Promise<PipelineStage[]> {
  return readStages(db.pool, accountId);
}

/**
 * The stages, locked, in their current order. A locking read that waited for another edit returns the
 * rows as that edit left them but sorted by what it saw before waiting, so the order is taken again here.
 */
async function lockStages(client: Queryable, accountId: string): Promise<PipelineStage[]> {
  const rows = await readStages(client, accountId, true);
  return rows.sort((a, b) => a.position - b.position || (a.key < b.key ? -1 : 1));
}

/** Positions 0…n-1 in the given key order, in one statement. */
async function writeOrder(client: Queryable, accountId: string, keys: string[]): Promise<void> {
  await client.query(
    `UPDATE pipeline_stages p SET position = v.position - 1
     FROM unnest($2::text[]) WITH ORDINALITY AS v(key, position)
     WHERE p.account_id = $1 AND p.key = v.key AND p.position <> v.position - 1`,
    [accountId, keys],
  );
}

const actorUserId = (context: LeadContext) => (context.actor.type === "user" ? context.actor.userId : null);
const notFound = { ok: false, code: "not_found", message: "That stage no longer exists. Reload the page." } as const;
const sameLabel = (stages: PipelineStage[], label: string, except?: string) =>
  stages.some(
    (stage) => stage.key !== except && stage.label.toLocaleLowerCase("en-US") === label.toLocaleLowerCase("en-US"),
  );
const duplicateLabel = (label: string) =>
  ({ ok: false, code: "invalid", message: `A stage named “${label}” already exists.` }) as const;

/** Appends a stage; its key is derived from the label and unique within the pipeline. */
export async function addPipelineStage(context: LeadContext, rawLabel: string): Promise<PipelineEditResult> {
  const label = checkStageLabel(rawLabel);
  if (!label.ok) return { ok: false, code: "invalid", message: label.message };
  return inTransaction(async (client) => {
    const stages = await lockStages(client, context.accountId);
    if (stages.length >= MAX_STAGES)
      return { ok: false, code: "too_many", message: `A pipeline has at most ${MAX_STAGES} stages.` } as const;
    if (sameLabel(stages, label.value)) return duplicateLabel(label.value);
    const key = deriveStageKey(label.value, new Set(stages.map((stage) => stage.key)));
    await client.query("INSERT INTO pipeline_stages (account_id, key, label, position) VALUES ($1, $2, $3, $4)", [
      context.accountId,
      key,
      label.value,
      stages.length,
    ]);
    await writeOrder(client, context.accountId, [...stages.map((stage) => stage.key), key]);
    await recordAuditSql(client, {
      accountId: context.accountId,
      actorUserId: actorUserId(context),
      action: "pipeline.stage_added",
      target: { type: "pipeline_stage", id: key, label: label.value },
    });
    return { ok: true, stages: await lockStages(client, context.accountId) } as const;
  });
}

/** Changes a stage's label; its key (what leads and API clients hold) stays. */
export async function renamePipelineStage(
  context: LeadContext,
  key: string,
  rawLabel: string,
): Promise<PipelineEditResult> {
  const label = checkStageLabel(rawLabel);
  if (!label.ok) return { ok: false, code: "invalid", message: label.message };
  return inTransaction(async (client) => {
    const stages = await lockStages(client, context.accountId);
    const stage = stages.find((candidate) => candidate.key === key);
    if (!stage) return notFound;
    if (stage.label === label.value) return { ok: true, stages } as const;
    if (sameLabel(stages, label.value, key)) return duplicateLabel(label.value);
    await client.query("UPDATE pipeline_stages SET label = $3 WHERE account_id = $1 AND key = $2", [
      context.accountId,
      key,
      label.value,
    ]);
    await recordAuditSql(client, {
      accountId: context.accountId,
      actorUserId: actorUserId(context),
      action: "pipeline.stage_renamed",
      target: { type: "pipeline_stage", id: key, label: label.value },
      metadata: { previousLabel: stage.label },
    });
    return { ok: true, stages: await lockStages(client, context.accountId) } as const;
  });
}

/** Writes `keys` as the order of the locked `stages` (same set), with its audit entry; a no-op when unchanged. */
async function applyOrder(
  client: Queryable,
  context: LeadContext,
  stages: PipelineStage[],
  keys: string[],
): Promise<PipelineEditResult> {
  if (keys.every((key, index) => key === stages[index].key)) return { ok: true, stages } as const;
  await writeOrder(client, context.accountId, keys);
  await recordAuditSql(client, {
    accountId: context.accountId,
    actorUserId: actorUserId(context),
    action: "pipeline.stages_reordered",
    target: { type: "pipeline", id: context.accountId, label: "Pipeline" },
    metadata: { order: keys },
  });
  return { ok: true, stages: await lockStages(client, context.accountId) } as const;
}

/** Puts the stages in the given order; `keys` must name every stage exactly once. */
export async function reorderPipelineStages(context: LeadContext, keys: string[]): Promise<PipelineEditResult> {
  return inTransaction(async (client) => {
    const stages = await lockStages(client, context.accountId);
    const current = stages.map((stage) => stage.key);
    const sameSet =
      keys.length === current.length &&
      new Set(keys).size === keys.length &&
      keys.every((key) => current.includes(key));
    if (!sameSet)
      return {
        ok: false,
        code: "conflict",
        message: "The pipeline changed while you were editing it. Reload the page and try again.",
      } as const;
    return applyOrder(client, context, stages, keys);
  });
}

/**
 * Moves one stage a place up (earlier) or down, relative to the order as it is now. The order is read
 * under the stages' lock, so two quick moves apply one after the other instead of the second undoing the first.
 */
export async function movePipelineStage(
  context: LeadContext,
  key: string,
  direction: "up" | "down",
): Promise<PipelineEditResult> {
  return inTransaction(async (client) => {
    const stages = await lockStages(client, context.accountId);
    const keys = stages.map((stage) => stage.key);
    const index = keys.indexOf(key);
    if (index === -1) return notFound;
    const target = direction === "up" ? index - 1 : index + 1;
    if (target < 0 || target >= keys.length) return { ok: true, stages } as const;
    [keys[index], keys[target]] = [keys[target], keys[index]];
    return applyOrder(client, context, stages, keys);
  });
}

/**
 * Removes a stage no lead holds. Lead writers check the stage without locking its row (see the Lead
 * model) but under the account's pipeline lock, held shared (lead_stage_for_write, lock_account_pipeline:
 * see the pipeline_account_lock migration). This takes it exclusively for its few milliseconds: this
 * account's lead writes in flight finish first, new ones wait, and none can put a lead into the stage
 * between the check and the delete; other accounts' writes never wait. The check is the next statement,
 * so it sees what the writers it waited for committed. The count for the refusal is taken after the
 * lock is released.
 */
export async function removePipelineStage(context: LeadContext, key: string): Promise<PipelineEditResult> {
  const { accountId } = context;
  const outcome = await inTransaction(async (client) => {
    const stages = await lockStages(client, accountId);
    const stage = stages.find((candidate) => candidate.key === key);
    if (!stage) return notFound;
    if (stages.length === 1)
      return { ok: false, code: "last_stage", message: "A pipeline needs at least one stage." } as const;
    await client.query("SET LOCAL lock_timeout = '5s'");
    await client.query("SELECT lock_account_pipeline($1::uuid, true)", [accountId]);
    const { rowCount } = await client.query(
      `DELETE FROM pipeline_stages WHERE account_id = $1 AND key = $2
         AND NOT EXISTS (SELECT 1 FROM leads WHERE account_id = $1 AND stage = $2)`,
      [accountId, key],
    );
    if (rowCount === 0) return "in_use" as const;
    await writeOrder(
      client,
      accountId,
      stages.filter((candidate) => candidate.key !== key).map((candidate) => candidate.key),
    );
    await recordAuditSql(client, {
      accountId,
      actorUserId: actorUserId(context),
      action: "pipeline.stage_removed",
      target: { type: "pipeline_stage", id: key, label: stage.label },
    });
    return { ok: true, stages: await lockStages(client, accountId) } as const;
  });
  if (outcome !== "in_use") return outcome;
  const count = await countLeadsInStage(accountId, key);
  return { ok: false, code: "in_use", count, message: stageInUseMessage(count) };
}

export async function countLeadsInStage(accountId: string, key: string): Promise<number> {
  const { rows } = await db.pool.query<{ count: number }>(
    "SELECT count(*)::int AS count FROM leads WHERE account_id = $1 AND stage = $2",
    [accountId, key],
  );
  return rows[0].count;
}

/**
 * Leads per stage for display, counted up to `cap` + 1 each (an index range per stage, never a full
 * count of a large account): more than `cap` reads as "1,000+".
 */
export async function stageLeadCounts(accountId: string, cap = 1_000): Promise<Map<string, number>> {
  const { rows } = await db.pool.query<{ key: string; count: number }>(
    `SELECT s.key, (SELECT count(*)::int FROM (SELECT 1 FROM leads l WHERE l.account_id = $1 AND l.stage = s.key
      LIMIT $2) capped) AS count
     FROM pipeline_stages s WHERE s.account_id = $1`,
    [accountId, cap + 1],
  );
  return new Map(rows.map((row) => [row.key, row.count]));
}
