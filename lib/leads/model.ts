import { fail, type Failure } from "@/lib/platform/result";
import type { FieldError } from "@/lib/platform/validation";
/*
 * A lead as the domain hands it out, who acts on leads, and how a write ends. The public API, the
 * dashboard and the chat all call the same domain functions with `{ accountId, actor }`.
 */

export type Lead = {
  id: string;
  name: string | null;
  email: string | null;
  phone: string | null;
  company: string | null;
  source: string | null;
  stage: string;
  notes: string | null;
  metadata: Record<string, string>;
  conversationId: string | null;
  createdAt: Date;
  updatedAt: Date;
  stageChangedAt: Date;
};

export type LeadActor =
  | { type: "api_key"; apiKeyId: string }
  | { type: "user"; userId: string }
  | { type: "chat"; conversationId: string | null }
  | { type: "system" };

export type LeadContext = { accountId: string; actor: LeadActor };

/** A write as the audit log and the outbound notifications see it (lib/leads/changes.ts records it). */
export type LeadChange =
  | { type: "lead.created"; lead: Lead }
  | { type: "lead.updated"; lead: Lead; fields: string[] }
  | { type: "lead.stage_changed"; lead: Lead; previousStage: string };

export type FieldProblem = FieldError;

export type LeadWriteResult =
  | { ok: true; lead: Lead }
  | (Failure<"invalid"> & { details: FieldProblem[] })
  | (Failure<"exists"> & { leadId: string })
  | Failure<"not_found">;

export const leadInvalid = (details: FieldProblem[]) => ({ ...fail("invalid", "Some fields are invalid."), details });
export const leadExists = (leadId: string) => ({ ...fail("exists", "A lead with this email already exists."), leadId });
export const LEAD_NOT_FOUND = fail("not_found", "This lead no longer exists.");

/** Where a lead came from when the writer does not say. */
export function defaultSource(actor: LeadActor): string | null {
  switch (actor.type) {
    case "api_key":
      return "api";
    case "user":
      return "dashboard";
    case "chat":
      return "chat";
    default:
      return null;
  }
}

/** The public API's representation: snake_case, ISO 8601 instants in UTC. */
export function serializeLead(lead: Lead) {
  return {
    id: lead.id,
    name: lead.name,
    email: lead.email,
    phone: lead.phone,
    company: lead.company,
    source: lead.source,
    stage: lead.stage,
    notes: lead.notes,
    metadata: lead.metadata,
    conversation_id: lead.conversationId,
    created_at: lead.createdAt.toISOString(),
    updated_at: lead.updatedAt.toISOString(),
    stage_changed_at: lead.stageChangedAt.toISOString(),
  };
}

export type ApiLead = ReturnType<typeof serializeLead>;
