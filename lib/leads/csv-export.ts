import "server-only";
import { stringify } from "csv-stringify/sync";
import { escapeCsvCell } from "@/lib/platform/csv/parse";
import type { Lead } from "./model";
import { listLeads } from "./read";
import type { LeadCursor } from "./schemas";

/*
 * Leads as CSV, newest first, streamed page by page over the table's keyset paging (a million leads
 * never sit in memory). The columns are the lead's fields; metadata is one JSON object per row. The
 * leads import (lib/leads/csv-import.ts) reads this format back.
 */

export const LEAD_CSV_COLUMNS = [
  "id",
  "name",
  "email",
  "phone",
  "company",
  "stage",
  "source",
  "notes",
  "metadata",
  "created_at",
  "updated_at",
  "stage_changed_at",
] as const;

const PAGE_SIZE = 500;

function csvRow(lead: Lead): string[] {
  return [
    lead.id,
    lead.name ?? "",
    lead.email ?? "",
    lead.phone ?? "",
    lead.company ?? "",
    lead.stage,
    lead.source ?? "",
    lead.notes ?? "",
    Object.keys(lead.metadata).length ? JSON.stringify(lead.metadata) : "",
    lead.createdAt.toISOString(),
    lead.updatedAt.toISOString(),
    lead.stageChangedAt.toISOString(),
    // Lead fields come from the public API and the chat: any may carry a formula (lib/platform/csv/parse.ts).
  ].map(escapeCsvCell);
}

export function exportLeadsCsv(
  accountId: string,
  filters: { q?: string | null; stage?: string | null },
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const lines = (rows: string[][]) => encoder.encode(stringify(rows, { record_delimiter: "\r\n" }));
  let cursor: LeadCursor | null = null;
  let started = false;
  return new ReadableStream({
    async pull(controller) {
      if (!started) {
        started = true;
        // The BOM makes spreadsheet apps read the file as UTF-8.
        controller.enqueue(encoder.encode("\uFEFF"));
        controller.enqueue(lines([[...LEAD_CSV_COLUMNS]]));
      }
      const page = await listLeads(accountId, { ...filters, limit: PAGE_SIZE, order: "desc", cursor, from: "replica" });
      if (page.data.length) controller.enqueue(lines(page.data.map(csvRow)));
      const last = page.data[page.data.length - 1];
      if (!page.hasMore || !last) controller.close();
      else cursor = { createdAt: last.createdAt.toISOString(), id: last.id };
    },
  });
}
