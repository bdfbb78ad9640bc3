import { z } from "zod";
import type { ZodOpenApiPathsObject } from "zod-openapi";
import { CONVERSATION_STATUSES, MESSAGE_AUTHORS } from "@/lib/conversations/model";
import { listConversationsQuerySchema, listMessagesQuerySchema, postMessageSchema } from "@/lib/conversations/schemas";
import {
  apiKeyOperation,
  BODY_LIMIT,
  errorResponse,
  IDEMPOTENCY_CONFLICTS,
  idempotentPost,
  idPath,
  instant,
  invalidRequest,
  keyedResponse,
  pageResponse,
  payloadTooLarge,
  publicIdSchema,
  replayableResponse,
} from "./common";

/*
 * The conversations paths (lib/conversations/http.ts; docs/conversations.md). Requests are
 * described by the schemas that validate them (lib/conversations/schemas.ts); answers by the schemas
 * below, which follow serializeConversation and serializeMessage in lib/conversations/model.ts (a test
 * checks serialized objects against them). The same objects are the `data` of the conversation.* and
 * message.created notifications.
 */

const conversationId = publicIdSchema("conversation", "conv_5hTq2Wm9ZkR4xN7bLc3Vd8");

export const conversationSchema = z
  .object({
    id: conversationId,
    status: z.enum(CONVERSATION_STATUSES).meta({
      description:
        "`bot`: with the assistant; `handoff_requested`: the visitor asked for a person; `handoff_active`: " +
        "a person replied; `closed`: by an agent, the API, or after 24 hours without a message.",
    }),
    widget_id: z
      .string()
      .meta({ description: "The chat widget the conversation started in.", example: "wid_8PqR2sT4uV6wX8yZ0aB2cD" }),
    lead_id: z
      .string()
      .nullable()
      .meta({
        description:
          "The linked lead: the one created from the email the visitor left when no lead had it, or one an agent " +
          "linked. An email that already belongs to a lead never links it by itself: lead_id stays null until an " +
          "agent links them.",
        example: null,
      }),
    visitor_name: z
      .string()
      .nullable()
      .meta({ description: "As the visitor typed it; null until they leave it.", example: "Ada" }),
    visitor_email: z.string().nullable().meta({
      format: "email",
      description: "As the visitor typed it (lower-cased); not verified.",
      example: "ada@example.com",
    }),
    contact: z
      .object({
        name: z.string().nullable().meta({ example: "Ada" }),
        email: z.string().meta({ format: "email", example: "ada@example.com" }),
        verified: z.boolean().meta({ description: "Always false: the chat does not check that the email is theirs." }),
      })
      .nullable()
      .meta({
        description:
          "The name and email the visitor left in the chat, as a claim; null until they leave them. " +
          "Not proof of who the visitor is.",
      }),
    started_at: instant("When the visitor opened the conversation (UTC); the same as created_at."),
    page_url: z
      .string()
      .nullable()
      .meta({ description: "The page the widget was opened on.", example: "https://example.com/events" }),
    referrer: z.string().nullable().meta({ description: "That page's referrer, when the browser sent one." }),
    user_agent: z.string().nullable().meta({ description: "The visitor's browser, as it announced itself." }),
    locale: z.string().nullable().meta({ description: "The browser's preferred language.", example: "en-GB" }),
    handoff_requested_at: instant("When the visitor asked for a person (UTC); null before.").nullable(),
    closed_at: instant("When it was closed (UTC); null while open.").nullable(),
    closed_reason: z.string().nullable().meta({
      description: "`agent` (dashboard), `api` or `idle` (24 hours without a message); null while open.",
      example: null,
    }),
    last_message_at: instant("When the newest message was written (UTC)."),
    created_at: instant("When the conversation started (UTC)."),
    updated_at: instant("When anything last changed: a message or a state (UTC). Lists are ordered by it."),
  })
  .meta({ id: "Conversation" });

export const messageSchema = z
  .object({
    id: publicIdSchema("chatMessage", "msg_2bN7cQ4dR9eS1fT6gU3hV8"),
    conversation_id: conversationId,
    author: z.enum(MESSAGE_AUTHORS).meta({
      description:
        "`visitor`, `assistant` (the automatic answers), `agent` (a person of the team) or `system` (state notices).",
    }),
    author_name: z
      .string()
      .nullable()
      .meta({
        description:
          "The name shown with the message: the agent's name as sent, the assistant's name, " +
          "or the visitor's once they left it; null when none.",
        example: "Grace",
      }),
    text: z
      .string()
      .meta({ description: "Plain text as written (HTML is not interpreted anywhere: show it as text)." }),
    created_at: instant("When the message was written (UTC)."),
  })
  .meta({ id: "ConversationMessage" });

const { params: idParams, notFound } = idPath("conversation", "conv_5hTq2Wm9ZkR4xN7bLc3Vd8");
const TAGS = ["Conversations"];

const notInHandoff = errorResponse(
  "`conversation_not_in_handoff`: the conversation is `bot` (no person was asked for) or `closed`; " +
    "nothing was stored. `details[0].status` is its status. " +
    "`idempotency_key_reused`, `idempotency_request_in_progress`: as on every POST.",
  ["conversation_not_in_handoff", ...IDEMPOTENCY_CONFLICTS],
);

export const conversationPaths: ZodOpenApiPathsObject = {
  "/api/public/conversations": {
    get: apiKeyOperation("read:conversations", {
      operationId: "listConversations",
      tags: TAGS,
      summary: "List conversations",
      description:
        "Most recently active first (by `updated_at`), paged by cursor: " +
        "pass `next_cursor` as `cursor` with the same filters until `has_more` is false. " +
        "`status=handoff_requested` lists the conversations waiting for a person.",
      requestParams: { query: listConversationsQuerySchema },
      responses: {
        200: pageResponse("A page of conversations.", conversationSchema, "ConversationList"),
        400: invalidRequest(),
      },
    }),
  },
  "/api/public/conversations/{id}": {
    get: apiKeyOperation("read:conversations", {
      operationId: "getConversation",
      tags: TAGS,
      summary: "Get a conversation",
      description: "The conversation with its session data (page URL, referrer, user agent, locale, linked lead).",
      requestParams: { path: idParams },
      responses: { 200: keyedResponse("The conversation.", conversationSchema), 404: notFound },
    }),
  },
  "/api/public/conversations/{id}/messages": {
    get: apiKeyOperation("read:conversations", {
      operationId: "listConversationMessages",
      tags: TAGS,
      summary: "List a conversation's messages",
      description: "Oldest first, in the order they were written; pass `next_cursor` as `cursor` for the next page.",
      requestParams: { path: idParams, query: listMessagesQuerySchema },
      responses: {
        200: pageResponse("A page of messages, oldest first.", messageSchema, "ConversationMessageList"),
        400: invalidRequest(),
        404: notFound,
      },
    }),
    post: apiKeyOperation(
      "write:conversations",
      idempotentPost({
        operationId: "postConversationMessage",
        tags: TAGS,
        summary: "Send a message to the visitor",
        description:
          "An agent's message, shown to the visitor in the chat within seconds. " +
          "Only while the conversation is `handoff_requested` or `handoff_active`; " +
          "the first message makes it `handoff_active`. Otherwise 409 `conversation_not_in_handoff` and nothing " +
          "is stored. Announced as `message.created`.",
        requestParams: { path: idParams },
        body: postMessageSchema,
        responses: {
          201: replayableResponse("The message was stored.", messageSchema),
          404: notFound,
          409: notInHandoff,
        },
      }),
    ),
  },
  "/api/public/conversations/{id}/close": {
    post: apiKeyOperation(
      "write:conversations",
      idempotentPost({
        operationId: "closeConversation",
        tags: TAGS,
        summary: "Close a conversation",
        description:
          "Closes the conversation (`closed_reason` `api`) and answers it; " +
          "the visitor sees a closing notice and can start a new conversation. " +
          "Closing a closed conversation changes nothing and answers it as it is. " +
          "Announced as `conversation.closed`. No body is needed.",
        requestParams: { path: idParams },
        responses: {
          200: replayableResponse("The closed conversation.", conversationSchema),
          400: invalidRequest(),
          404: notFound,
          413: payloadTooLarge(BODY_LIMIT),
        },
      }),
    ),
  },
};
