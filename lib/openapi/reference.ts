import { z } from "zod";
import type { ZodOpenApiPathsObject } from "zod-openapi";

/* GET /api/public/openapi.json: this document itself, public (no key). */

export const OPENAPI_PATH = "/api/public/openapi.json";

export const referencePaths: ZodOpenApiPathsObject = {
  [OPENAPI_PATH]: {
    get: {
      operationId: "getOpenApiDocument",
      tags: ["Reference"],
      summary: "This OpenAPI document",
      description:
        "The OpenAPI 3.1 description of the public API and the Events Webhook. No API key needed. " +
        "Rendered at /docs/api.",
      security: [],
      responses: {
        200: {
          description: "The OpenAPI document.",
          content: { "application/json": { schema: z.looseObject({ openapi: z.string() }) } },
        },
      },
    },
  },
};
