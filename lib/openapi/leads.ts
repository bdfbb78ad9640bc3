import { z } from "zod";
import type { ZodOpenApiPathsObject } from "zod-openapi";
import {
  changeStageSchema,
  createLeadSchema,
  LEAD_LIMITS,
  listLeadsQuerySchema,
  updateLeadSchema,
} from "@/lib/leads/schemas";
import {
  apiKeyOperation,
  conflictResponse,
  IDEMPOTENCY_CONFLICTS,
  idempotentPost,
  idPath,
  instant,
  invalidRequest,
  jsonBodyOperation,
  keyedResponse,
  locationHeader,
  pageResponse,
  publicIdSchema,
  replayableResponse,
} from "./common";

/*
 * The leads and pipeline paths (lib/leads/http.ts). Requests are described by the very schemas that
 * validate them (lib/leads/schemas.ts); answers by the schemas below, which follow serializeLead in
 * lib/leads/model.ts (a test checks a serialized lead against them).
 */

export const leadSchema = z
  .object({
    id: publicIdSchema("lead", "lead_3kTMd9QpXr2hVbN8cWfY7a"),
    name: z.string().nullable().meta({ example: "Ada Lovelace" }),
    email: z
      .string()
      .nullable()
      .meta({ format: "email", description: "Lower-cased; unique per account.", example: "ada@example.com" }),
    phone: z.string().nullable().meta({ example: "+44 20 7946 0958" }),
    company: z.string().nullable().meta({ example: "Analytical Engines Ltd" }),
    source: z
      .string()
      .nullable()
      .meta({ description: "chat, api, import, dashboard or the client's own text.", example: "api" }),
    stage: z.string().meta({ description: "A stage key of the account's pipeline.", example: "new" }),
    notes: z.string().nullable(),
    metadata: z.record(z.string(), z.string()).meta({ example: { plan: "pro" } }),
    conversation_id: z.string().nullable().meta({ description: "The chat conversation the lead came from, if any." }),
    created_at: instant("When the lead was created (UTC)."),
    updated_at: instant("When any field last changed (UTC)."),
    stage_changed_at: instant("When the stage last changed (UTC)."),
  })
  .meta({ id: "Lead" });

/** lib/leads/receipt.ts: what a write answers a key without read:leads. */
export const leadReceiptSchema = leadSchema
  .partial()
  .required({ id: true })
  .meta({
    id: "LeadWriteReceipt",
    description:
      "A write's answer to a key with write:leads but not read:leads: the id, " +
      "the fields the request set (as stored; of `metadata` only the keys it named; " +
      "`stage` only when it named one) and the timestamps the write moved (create: all three; PATCH: " +
      "`updated_at`, and `stage_changed_at` when it set a stage; " +
      "stage change: `updated_at` and `stage_changed_at`). Never the rest of the lead.",
  });

/** A write's answer: the whole lead for a key with read:leads, else the receipt. */
const writeAnswer = z.union([leadSchema, leadReceiptSchema]);
const WRITE_ANSWER_NOTE =
  "With `read:leads` the whole lead; without it a `LeadWriteReceipt`, which holds only what the request set.";

const stageSchema = z
  .object({
    id: z.string().meta({ description: "The stage key (every list item has an `id`).", example: "new" }),
    key: z.string().meta({ example: "new" }),
    label: z.string().meta({ example: "New" }),
    position: z.number().int().meta({ description: "0-based order in the pipeline." }),
  })
  .meta({ id: "PipelineStage" });

const { params: leadIdParams, notFound } = idPath("lead", "lead_3kTMd9QpXr2hVbN8cWfY7a");
const TAGS = ["Leads"];

export const leadPaths: ZodOpenApiPathsObject = {
  "/api/public/leads": {
    get: apiKeyOperation("read:leads", {
      operationId: "listLeads",
      tags: TAGS,
      summary: "List leads",
      description:
        "Newest first (by creation), paged by cursor: pass `next_cursor` as `cursor` with the same filters " +
        "until `has_more` is false. " +
        `\`q\` searches name, email and company (up to ${LEAD_LIMITS.q} characters). ` +
        `Polling tools read page one and de-duplicate by \`id\`.`,
      requestParams: { query: listLeadsQuerySchema },
      responses: {
        200: pageResponse("A page of leads.", leadSchema, "LeadList"),
        400: invalidRequest(),
      },
    }),
    post: apiKeyOperation(
      "write:leads",
      idempotentPost(
        {
          operationId: "createLead",
          tags: TAGS,
          summary: "Create a lead",
          description:
            "At least one of name, email or phone. `stage` defaults to the pipeline's first stage, " +
            "`source` to `api`. An email that another lead of the account already has is 409 `lead_exists`, " +
            "with that lead's id (`details[0].lead_id`) for a key with `read:leads` only. " +
            WRITE_ANSWER_NOTE,
          body: createLeadSchema,
          responses: {
            201: replayableResponse(
              "The lead was created.",
              writeAnswer,
              locationHeader("lead", "/api/public/leads/lead_3kTMd9QpXr2hVbN8cWfY7a"),
            ),
          },
        },
        ["lead_exists", ...IDEMPOTENCY_CONFLICTS],
      ),
    ),
  },
  "/api/public/leads/{id}": {
    get: apiKeyOperation("read:leads", {
      operationId: "getLead",
      tags: TAGS,
      summary: "Get a lead",
      requestParams: { path: leadIdParams },
      responses: { 200: keyedResponse("The lead.", leadSchema), 404: notFound },
    }),
    patch: apiKeyOperation(
      "write:leads",
      jsonBodyOperation({
        operationId: "updateLead",
        tags: TAGS,
        summary: "Update a lead",
        description:
          `A partial update. ${WRITE_ANSWER_NOTE} ` +
          "After the change one of name, email or phone must remain and `metadata` may hold at most 50 keys " +
          "(else 400). " +
          "A new `stage` moves the lead like POST …/stage. PATCH takes no Idempotency-Key: " +
          "sending the same change twice has the same result. " +
          "A taken email is 409 `lead_exists` (with the holder's `lead_id` for a key with `read:leads` only).",
        requestParams: { path: leadIdParams },
        body: updateLeadSchema,
        responses: {
          200: keyedResponse("The updated lead.", writeAnswer),
          404: notFound,
          409: conflictResponse(["lead_exists"]),
        },
      }),
    ),
  },
  "/api/public/leads/{id}/stage": {
    post: apiKeyOperation(
      "write:leads",
      idempotentPost({
        operationId: "changeLeadStage",
        tags: TAGS,
        summary: "Change a lead's stage",
        description:
          `Moves the lead to another stage of the pipeline. ${WRITE_ANSWER_NOTE} An unknown stage key is 400 ` +
          `\`invalid_request\`.`,
        requestParams: { path: leadIdParams },
        body: changeStageSchema,
        responses: { 200: replayableResponse("The lead, in its new stage.", writeAnswer), 404: notFound },
      }),
    ),
  },
  "/api/public/pipeline": {
    get: apiKeyOperation("read:leads", {
      operationId: "listPipelineStages",
      tags: ["Pipeline"],
      summary: "List the pipeline's stages",
      description:
        "The account's stages in order, for the stage dropdowns of automation tools. One page: " +
        "`has_more` is always false.",
      responses: {
        200: pageResponse("The stages, in pipeline order.", stageSchema, "PipelineStageList"),
      },
    }),
  },
};
