import { z } from "zod";
import type { ZodOpenApiPathsObject } from "zod-openapi";
import { SCOPES } from "@/lib/api-keys/scopes";
import { apiKeyOperation, keyedResponse } from "./common";

/* GET /api/public/zapier/me (lib/public-api/zapier-me.ts): the connection test. */

const meSchema = z
  .object({
    account: z.object({ id: z.string(), name: z.string().meta({ example: "Acme Events" }) }),
    key: z.object({
      id: z.string(),
      name: z.string().meta({ example: "Zapier" }),
      prefix: z
        .string()
        .meta({ description: "The key's first 12 characters, as the dashboard shows them.", example: "ik_live_3kTM" }),
      scopes: z.array(z.enum(SCOPES)),
      expires_at: z.string().nullable().meta({ format: "date-time", description: "null: never expires." }),
      created_at: z.string().meta({ format: "date-time" }),
    }),
  })
  .meta({ id: "Me" });

export const mePaths: ZodOpenApiPathsObject = {
  "/api/public/zapier/me": {
    get: apiKeyOperation(null, {
      operationId: "getMe",
      tags: ["Account"],
      summary: "Test the connection",
      description: "Which account and key this is. Automation tools call it to test a connection.",
      responses: {
        200: keyedResponse("The key's account and the key itself (never the secret).", meSchema),
      },
    }),
  },
};
