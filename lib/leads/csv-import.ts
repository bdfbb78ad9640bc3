import "server-only";
import type { CsvRow, CsvRowProblem } from "@/lib/platform/csv/parse";
import type { CsvImporter, CsvImportSummary, CsvRowCheck } from "@/lib/csv-import/upload";
import { writeInBatches } from "@/lib/csv-import/write-batches";
import { newPublicId } from "@/lib/platform/ids";
import { parseWith } from "@/lib/api/validation";
import { LEAD_CSV_COLUMNS } from "./csv-export";
import { listPipelineStages } from "./pipeline";
import { AT_LEAST_ONE, createLeadSchema, LEAD_LIMITS, type CreateLeadBody } from "./schemas";
import { recordLeadChanges } from "./changes";
import type { LeadChange } from "./model";
import { LEAD_COLUMNS, toLead, type LeadRow, type Queryable } from "./sql";

/*
 * The leads CSV import (POST /leads/import) on the shared upload (lib/csv-import/upload.ts). The columns are
 * the export's, so an exported file imports back; id and the times are ignored. Rows are checked with
 * the API's own schema. A row whose email belongs to a lead updates that lead (the cells given replace
 * its fields, metadata is merged); other rows create leads. So importing one file twice changes nothing.
 */

type LeadColumn = (typeof LEAD_CSV_COLUMNS)[number];
export type LeadImportRow = { line: number; lead: CreateLeadBody };

const METADATA_PROBLEM = 'Must be a JSON object of string values, e.g. {"plan":"pro"}.';

/** Stage cells may hold a key ("won") or a label ("Won"), in any case. */
async function stageResolver(accountId: string): Promise<(text: string) => string | null> {
  const byName = new Map<string, string>();
  for (const stage of await listPipelineStages(accountId)) {
    byName.set(stage.key.toLowerCase(), stage.key);
    if (!byName.has(stage.label.toLowerCase())) byName.set(stage.label.toLowerCase(), stage.key);
  }
  return (text) => byName.get(text.trim().toLowerCase()) ?? null;
}

function parseMetadata(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return METADATA_PROBLEM;
  }
}

async function checker(accountId: string) {
  const resolveStage = await stageResolver(accountId);
  return (row: CsvRow<LeadColumn>): CsvRowCheck<LeadImportRow> => {
    const { values, line } = row;
    const problems: CsvRowProblem[] = [];
    const stageText = values.stage?.trim() ?? "";
    const stage = stageText ? resolveStage(stageText) : null;
    if (stageText && !stage)
      problems.push({
        line,
        field: "stage",
        message: `Unknown stage “${stageText.slice(0, LEAD_LIMITS.stage)}”. Use a stage of Settings → Pipeline.`,
      });
    const metadataText = values.metadata?.trim() ?? "";
    const metadata = metadataText ? parseMetadata(metadataText) : undefined;
    if (metadata === METADATA_PROBLEM) problems.push({ line, field: "metadata", message: METADATA_PROBLEM });
    const parsed = parseWith(createLeadSchema, {
      name: values.name,
      email: values.email,
      phone: values.phone,
      company: values.company,
      notes: values.notes,
      source: values.source || "import",
      stage,
      metadata: metadata === METADATA_PROBLEM ? undefined : metadata,
    });
    if (!parsed.ok) {
      for (const detail of parsed.details) {
        const message = detail.message === AT_LEAST_ONE ? "Give at least a name, an email or a phone." : detail.message;
        problems.push({ line, field: detail.field.split(".")[0], message });
      }
    }
    if (problems.length || !parsed.ok) return { ok: false, problems };
    return { ok: true, row: { line, lead: parsed.value } };
  };
}

/** A later row with the same email replaces an earlier one, as a second import of it would. */
function lastPerEmail(rows: LeadImportRow[]): LeadImportRow[] {
  const byEmail = new Map<string, LeadImportRow>();
  const withoutEmail: LeadImportRow[] = [];
  for (const row of rows) {
    if (!row.lead.email) withoutEmail.push(row);
    else {
      byEmail.delete(row.lead.email);
      byEmail.set(row.lead.email, row);
    }
  }
  return [...withoutEmail, ...byEmail.values()].sort((a, b) => a.line - b.line);
}

const columnsOf = (rows: LeadImportRow[]) => ({
  name: rows.map((row) => row.lead.name),
  email: rows.map((row) => row.lead.email),
  phone: rows.map((row) => row.lead.phone),
  company: rows.map((row) => row.lead.company),
  source: rows.map((row) => row.lead.source),
  notes: rows.map((row) => row.lead.notes),
  stage: rows.map((row) => row.lead.stage),
  metadata: rows.map((row) => JSON.stringify(row.lead.metadata)),
});

const STAGE_STILL_EXISTS =
  "(r.stage IS NULL OR EXISTS (SELECT 1 FROM pipeline_stages s WHERE s.account_id = $1 AND s.key = r.stage))";

/**
 * Leads that exist (by email): given cells replace fields, metadata merges (at most 50 keys). Returns the
 * updated leads with the stage each had before (a self-join reads the row as it was), for notifications.
 */
async function updateExisting(
  client: Queryable,
  accountId: string,
  rows: LeadImportRow[],
): Promise<Array<LeadRow & { previous_stage: string }>> {
  if (!rows.length) return [];
  const c = columnsOf(rows);
  const { rows: updated } = await client.query<LeadRow & { previous_stage: string }>(
    `UPDATE leads l SET
       name = coalesce(r.name, l.name), phone = coalesce(r.phone, l.phone), company = coalesce(r.company, l.company),
       notes = coalesce(r.notes, l.notes), metadata = l.metadata || r.metadata::jsonb,
       stage = coalesce(r.stage, l.stage),
       stage_changed_at = CASE WHEN coalesce(r.stage, l.stage) <> l.stage THEN now()
         ELSE l.stage_changed_at END, updated_at = now()
     FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[])
       AS r(email, name, phone, company, notes, stage, metadata),
       leads old
     WHERE l.account_id = $1 AND l.email = r.email AND old.id = l.id AND ${STAGE_STILL_EXISTS}
       AND (SELECT count(*) FROM jsonb_object_keys(l.metadata || r.metadata::jsonb)) <= ${LEAD_LIMITS.metadataKeys}
     RETURNING ${LEAD_COLUMNS.split(", ")
       .map((column) => `l.${column}`)
       .join(", ")}, old.stage AS previous_stage`,
    [accountId, c.email, c.name, c.phone, c.company, c.notes, c.stage, c.metadata],
  );
  return updated;
}

/** New leads; the pipeline's first stage when none is given. Returns the leads inserted. */
async function insertNew(
  client: Queryable,
  accountId: string,
  rows: LeadImportRow[],
  ids: string[],
): Promise<LeadRow[]> {
  if (!rows.length) return [];
  const c = columnsOf(rows);
  const { rows: inserted } = await client.query<LeadRow>(
    `INSERT INTO leads (id, account_id, name, email, phone, company, source, notes, stage, metadata)
     SELECT r.id, $1, r.name, r.email, r.phone, r.company, r.source, r.notes, coalesce(r.stage, f.key),
       r.metadata::jsonb
     FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[],
       $10::text[])
       AS r(id, name, email, phone, company, source, notes, stage, metadata)
     CROSS JOIN (SELECT key FROM pipeline_stages WHERE account_id = $1 ORDER BY position, key LIMIT 1) f
     WHERE ${STAGE_STILL_EXISTS}
     ON CONFLICT (account_id, email) WHERE email IS NOT NULL DO NOTHING
     RETURNING ${LEAD_COLUMNS}`,
    [accountId, ids, c.name, c.email, c.phone, c.company, c.source, c.notes, c.stage, c.metadata],
  );
  return inserted;
}

/** lead.created / lead.updated / lead.stage_changed for what the batch wrote, in the batch's transaction. */
function importChanges(inserted: LeadRow[], updated: Array<LeadRow & { previous_stage: string }>): LeadChange[] {
  const changes: LeadChange[] = inserted.map((row) => ({ type: "lead.created", lead: toLead(row) }));
  for (const row of updated) {
    const lead = toLead(row);
    changes.push({ type: "lead.updated", lead, fields: [] });
    if (row.previous_stage !== lead.stage)
      changes.push({ type: "lead.stage_changed", lead, previousStage: row.previous_stage });
  }
  return changes;
}

async function importBatch(
  client: Queryable,
  accountId: string,
  batch: LeadImportRow[],
  summary: CsvImportSummary,
): Promise<void> {
  // The batch's stages cannot be removed until it commits (removePipelineStage in pipeline.ts); every
  // statement below reads the pipeline as it is once the lock is held.
  await client.query("SELECT lock_account_pipeline($1::uuid, false)", [accountId]);
  const emails = batch.flatMap((row) => (row.lead.email ? [row.lead.email] : []));
  const { rows: found } = await client.query<{ email: string }>(
    "SELECT email FROM leads WHERE account_id = $1 AND email = ANY($2::text[])",
    [accountId, emails],
  );
  const existing = new Set(found.map((row) => row.email));
  const toUpdate = batch.filter((row) => row.lead.email && existing.has(row.lead.email));
  const toInsert = batch.filter((row) => !row.lead.email || !existing.has(row.lead.email));
  const ids = toInsert.map(() => newPublicId("lead"));

  const updatedRows = await updateExisting(client, accountId, toUpdate);
  const insertedRows = await insertNew(client, accountId, toInsert, ids);
  await recordLeadChanges(client, { accountId, actor: { type: "system" } }, importChanges(insertedRows, updatedRows));
  const updated = new Set(updatedRows.map((row) => row.email));
  const inserted = new Set(insertedRows.map((row) => row.id));
  summary.updated += updated.size;
  summary.created += inserted.size;
  for (const row of toUpdate) {
    if (updated.has(row.lead.email!)) continue;
    summary.failed++;
    summary.problems.push({
      line: row.line,
      field: "metadata",
      message: `The lead would hold more than ${LEAD_LIMITS.metadataKeys} metadata keys.`,
    });
  }
  toInsert.forEach((row, index) => {
    if (inserted.has(ids[index])) return;
    summary.failed++;
    // Another writer created a lead with this email meanwhile, or the stage was removed meanwhile.
    summary.problems.push({
      line: row.line,
      message:
        "The row changed while importing (a lead with this email appeared, or its stage was removed). " +
        "Import the file again.",
    });
  });
}

/** Writes the rows in batches, one transaction each. */
export function importLeads(accountId: string, rows: LeadImportRow[]): Promise<CsvImportSummary> {
  return writeInBatches(rows, lastPerEmail, async (client, batch, summary) => {
    await client.query("BEGIN");
    try {
      await importBatch(client, accountId, batch, summary);
      await client.query("COMMIT");
    } catch (error) {
      await client.query("ROLLBACK").catch(() => {});
      throw error;
    }
  });
}

export const LEADS_IMPORTER: CsvImporter<LeadColumn, LeadImportRow> = {
  layout: { columns: LEAD_CSV_COLUMNS, required: [] },
  defaultFileName: "leads.csv",
  preview: {
    columns: ["Name", "Email", "Company", "Stage"],
    cells: (row) => [row.values.name ?? "", row.values.email ?? "", row.values.company ?? "", row.values.stage ?? ""],
  },
  checker,
  write: importLeads,
  auditAction: "leads.imported",
};

export const LEADS_CSV_TEMPLATE =
  "name,email,phone,company,stage,source,notes,metadata\r\n" +
  'Ada Lovelace,ada@example.com,020 7946 0000,Analytical Engines,New,,"Met at the fair, ' +
  'follow up in May","{""plan"":""pro""}"\r\n' +
  "Grace Hopper,grace@example.com,,Navy,qualified,referral,,\r\n";
