import "server-only";
import type { ApiKeyContext } from "@/lib/api/with-api-key";
import { notFoundResponse } from "@/lib/api/with-api-key";
import { errorResponse, jsonResponse } from "@/lib/platform/http/api-error";
import { idempotentJsonWrite } from "@/lib/api/idempotency";
import { listResponse } from "@/lib/api/list";
import { getByIdRoute, readJsonInput, readQuery } from "@/lib/api/request";
import { invalidRequestResponse, parseWith } from "@/lib/api/validation";
import { createLead } from "./create";
import { serializeLead, type LeadContext, type LeadWriteResult } from "./model";
import { leadWriteReceipt, type LeadWrite } from "./receipt";
import { listPipelineStages } from "./pipeline";
import { getLead, listLeads, listOptionsOf } from "./read";
import { changeStageSchema, createLeadSchema, listLeadsQuerySchema, updateLeadSchema } from "./schemas";
import { changeLeadStage, updateLead } from "./update";

/*
 * The leads and pipeline paths of the public API. The route table (lib/public-api/routes.ts) wraps each
 * in withApiKey with the scope it needs; app/api/public route files re-export it. Answers follow the
 * public API conventions (docs/leads-api.md): lists in {data, has_more, next_cursor}, 400 invalid_request
 * with per-field details, 404 not_found for ids outside the key's account, Idempotency-Key on POST.
 */

type IdParams = { id: string };

/** A request body that validated as a lead schema's object. */
const asRecord = (body: unknown) => body as Record<string, unknown>;

function leadContext({ account, key }: ApiKeyContext<unknown>): LeadContext {
  return { accountId: account.id, actor: { type: "api_key", apiKeyId: key.id } };
}

/**
 * How a write answers: a key that may read leads gets the whole lead and, for a taken email, the id of
 * the lead that holds it; a write-only key gets a receipt (lib/leads/receipt.ts) and a 409 that names no
 * lead, so that writing never reads. Idempotent replays repeat whatever the key was answered first.
 */
type WriteAnswer = { context: ApiKeyContext<unknown>; body: Record<string, unknown>; write: LeadWrite };

function writeResponse(result: LeadWriteResult, { context, body, write }: WriteAnswer): Response {
  const reader = context.key.scopes.includes("read:leads");
  if (result.ok) {
    const status = write === "create" ? 201 : 200;
    const headers = status === 201 ? { Location: `/api/public/leads/${result.lead.id}` } : undefined;
    return jsonResponse(reader ? serializeLead(result.lead) : leadWriteReceipt(result.lead, body, write), {
      status,
      headers,
    });
  }
  switch (result.code) {
    case "invalid":
      return invalidRequestResponse(result.details);
    case "exists":
      if (!reader) {
        return errorResponse(409, "lead_exists", "A lead with this email already exists.", {
          details: [{ field: "email", message: "Another lead already has this email." }],
        });
      }
      return errorResponse(409, "lead_exists", "A lead with this email already exists.", {
        details: [{ field: "email", lead_id: result.leadId, message: `Lead ${result.leadId} has this email.` }],
      });
    case "not_found":
      return notFoundResponse("lead");
  }
}

/** GET /api/public/leads (read:leads) */
export async function listLeadsRoute(request: Request, context: ApiKeyContext<unknown>): Promise<Response> {
  const query = readQuery(request, listLeadsQuerySchema);
  if (!query.ok) return query.response;
  const page = await listLeads(context.account.id, listOptionsOf(query.value));
  return listResponse({ ...page, data: page.data.map(serializeLead) });
}

/** POST /api/public/leads (write:leads) → 201 */
export async function createLeadRoute(request: Request, context: ApiKeyContext<unknown>): Promise<Response> {
  return idempotentJsonWrite(request, context, async (body) => {
    const input = parseWith(createLeadSchema, body);
    if (!input.ok) return invalidRequestResponse(input.details);
    return writeResponse(await createLead(leadContext(context), input.value), {
      context,
      body: asRecord(body),
      write: "create",
    });
  });
}

/** GET /api/public/leads/{id} (read:leads) */
export const getLeadRoute = getByIdRoute("lead", getLead, serializeLead);

/** PATCH /api/public/leads/{id} (write:leads): a partial update. */
export async function updateLeadRoute(request: Request, context: ApiKeyContext<IdParams>): Promise<Response> {
  const { id } = await context.params;
  const input = await readJsonInput(request, updateLeadSchema);
  if (!input.ok) return input.response;
  return writeResponse(await updateLead(leadContext(context), id, input.value), {
    context,
    body: input.body,
    write: "update",
  });
}

/** POST /api/public/leads/{id}/stage (write:leads): `{"stage": "won"}`, answers the lead. */
export async function changeLeadStageRoute(request: Request, context: ApiKeyContext<IdParams>): Promise<Response> {
  const { id } = await context.params;
  return idempotentJsonWrite(request, context, async (body) => {
    const input = parseWith(changeStageSchema, body);
    if (!input.ok) return invalidRequestResponse(input.details);
    return writeResponse(await changeLeadStage(leadContext(context), id, input.value.stage), {
      context,
      body: asRecord(body),
      write: "stage",
    });
  });
}

/** GET /api/public/pipeline (read:leads): the stages in order, for automation tools' dropdowns. */
export async function listPipelineRoute(_request: Request, context: ApiKeyContext<unknown>): Promise<Response> {
  const stages = await listPipelineStages(context.account.id);
  // Every list item carries an `id` (tools de-duplicate by it); a stage's id is its key.
  const data = stages.map((stage) => ({ id: stage.key, key: stage.key, label: stage.label, position: stage.position }));
  return listResponse({ data, hasMore: false, nextCursor: null });
}
