import "server-only";
import type { ApiKeyContext } from "@/lib/api-keys/with-api-key";
import { notFoundResponse } from "@/lib/api-keys/with-api-key";
import { errorResponse, jsonResponse } from "@/lib/http/api-error";
import { parseJsonObject, readRawBody } from "@/lib/public-api/body";
import { idempotentJsonWrite } from "@/lib/public-api/idempotency";
import { listResponse, queryObject } from "@/lib/public-api/list";
import { invalidRequestResponse, parseWith } from "@/lib/public-api/validation";
import { createLead } from "./create";
import { serializeLead, type LeadContext, type LeadWriteResult } from "./model";
import { listPipelineStages } from "./pipeline";
import { getLead, listLeads } from "./read";
import { changeStageSchema, createLeadSchema, listLeadsQuerySchema, updateLeadSchema } from "./schemas";
import { changeLeadStage, updateLead } from "./update";

/*
 * The leads and pipeline paths of the public API. Routes are thin: each app/api/public/… route file
 * wraps one of these in withApiKey with the scope it needs. Answers follow the public API conventions
 * (docs/leads-api.md): lists in {data, has_more, next_cursor}, 400 invalid_request with per-field details,
 * 404 not_found for ids outside the key's account, Idempotency-Key on POST.
 */

type IdParams = { id: string };

function leadContext({ account, key }: ApiKeyContext<unknown>): LeadContext {
  return { accountId: account.id, actor: { type: "api_key", apiKeyId: key.id } };
}

function writeResponse(result: LeadWriteResult, status = 200): Response {
  if (result.ok) {
    const headers = status === 201 ? { Location: `/api/public/leads/${result.lead.id}` } : undefined;
    return jsonResponse(serializeLead(result.lead), { status, headers });
  }
  switch (result.reason) {
    case "invalid":
      return invalidRequestResponse(result.details);
    case "exists":
      return errorResponse(409, "lead_exists", "A lead with this email already exists.", {
        details: [{ field: "email", lead_id: result.leadId, message: `Lead ${result.leadId} has this email.` }],
      });
    case "not_found":
      return notFoundResponse("lead");
  }
}

/** GET /api/public/leads (read:leads) */
export async function listLeadsRoute(request: Request, context: ApiKeyContext<unknown>): Promise<Response> {
  const query = parseWith(listLeadsQuerySchema, queryObject(new URL(request.url)));
  if (!query.ok) return invalidRequestResponse(query.details);
  const { limit, order, cursor, q, stage, created_after, updated_after } = query.value;
  const page = await listLeads(context.account.id, { limit, order, cursor, q, stage, createdAfter: created_after, updatedAfter: updated_after });
  return listResponse({ ...page, data: page.data.map(serializeLead) });
}

/** POST /api/public/leads (write:leads) → 201 */
export async function createLeadRoute(request: Request, context: ApiKeyContext<unknown>): Promise<Response> {
  return idempotentJsonWrite(request, context.key.id, async (body) => {
    const input = parseWith(createLeadSchema, body);
    if (!input.ok) return invalidRequestResponse(input.details);
    return writeResponse(await createLead(leadContext(context), input.value), 201);
  });
}

/** GET /api/public/leads/{id} (read:leads) */
export async function getLeadRoute(_request: Request, context: ApiKeyContext<IdParams>): Promise<Response> {
  const { id } = await context.params;
  const lead = await getLead(context.account.id, id);
  return lead ? jsonResponse(serializeLead(lead)) : notFoundResponse("lead");
}

/** PATCH /api/public/leads/{id} (write:leads): a partial update. */
export async function updateLeadRoute(request: Request, context: ApiKeyContext<IdParams>): Promise<Response> {
  const { id } = await context.params;
  const raw = await readRawBody(request);
  if (!raw.ok) return raw.response;
  const json = parseJsonObject(raw.bytes);
  if (!json.ok) return json.response;
  const input = parseWith(updateLeadSchema, json.value);
  if (!input.ok) return invalidRequestResponse(input.details);
  return writeResponse(await updateLead(leadContext(context), id, input.value));
}

/** POST /api/public/leads/{id}/stage (write:leads): `{"stage": "won"}`, answers the lead. */
export async function changeLeadStageRoute(request: Request, context: ApiKeyContext<IdParams>): Promise<Response> {
  const { id } = await context.params;
  return idempotentJsonWrite(request, context.key.id, async (body) => {
    const input = parseWith(changeStageSchema, body);
    if (!input.ok) return invalidRequestResponse(input.details);
    return writeResponse(await changeLeadStage(leadContext(context), id, input.value.stage));
  });
}

/** GET /api/public/pipeline (read:leads): the stages in order, for automation tools' dropdowns. */
export async function listPipelineRoute(_request: Request, context: ApiKeyContext<unknown>): Promise<Response> {
  const stages = await listPipelineStages(context.account.id);
  // Every list item carries an `id` (tools de-duplicate by it); a stage's id is its key.
  const data = stages.map((stage) => ({ id: stage.key, key: stage.key, label: stage.label, position: stage.position }));
  return listResponse({ data, hasMore: false, nextCursor: null });
}
