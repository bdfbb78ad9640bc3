import { serializeLead, type ApiLead, type Lead } from "./model";

/*
 * What a lead write answers a key that may write leads but not read them (write:leads without
 * read:leads): the id, the fields the request set, as stored, and the timestamps the write moved. Never
 * the rest of the lead: an empty PATCH must not read a lead's notes or email. Pure: no server imports.
 */

export type LeadWrite = "create" | "update" | "stage";

const TEXT_FIELDS = ["name", "email", "phone", "company", "source", "notes"] as const;

const TIMESTAMPS: Record<LeadWrite, ReadonlyArray<"created_at" | "updated_at" | "stage_changed_at">> = {
  create: ["created_at", "updated_at", "stage_changed_at"],
  update: ["updated_at"],
  stage: ["updated_at", "stage_changed_at"],
};

/**
 * `body` is the request's JSON object as validated. A `stage` counts as set only when it is a key: null
 * leaves the stage as it is (PATCH) or takes the pipeline's first (create), neither of which the writer
 * chose. Of `metadata`, only the keys the request named are answered (a deleted key is absent).
 */
export function leadWriteReceipt(
  lead: Lead,
  body: Record<string, unknown>,
  write: LeadWrite,
): Partial<ApiLead> & { id: string } {
  const full = serializeLead(lead);
  const receipt: Partial<ApiLead> & { id: string } = { id: lead.id };
  for (const field of TEXT_FIELDS) if (field in body) receipt[field] = full[field];
  const stageSet = typeof body.stage === "string";
  if (stageSet) receipt.stage = full.stage;
  if ("metadata" in body) {
    const sent = body.metadata;
    const keys = sent && typeof sent === "object" ? Object.keys(sent) : [];
    receipt.metadata = Object.fromEntries(
      keys.filter((key) => Object.hasOwn(full.metadata, key)).map((key) => [key, full.metadata[key]]),
    );
  }
  for (const stamp of TIMESTAMPS[write]) receipt[stamp] = full[stamp];
  if (write === "update" && stageSet) receipt.stage_changed_at = full.stage_changed_at;
  return receipt;
}
