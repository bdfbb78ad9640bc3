import { methodNotAllowedResponse } from "@/lib/platform/http/api-error";
import { openApiJson } from "@/lib/openapi/document";

// Read at request time, not at build: the servers entry comes from this deployment's APP_BASE_URL.
export const dynamic = "force-dynamic";

/** The OpenAPI document (lib/openapi): public, the same for every caller, built once per process. */
export function GET(): Response {
  return new Response(openApiJson(), {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Cache-Control": "public, max-age=300",
      // A public description: tools on other origins (API clients, editors) may fetch it.
      "Access-Control-Allow-Origin": "*",
    },
  });
}

const notAllowed = () => methodNotAllowedResponse(["GET", "HEAD"]);
export { notAllowed as POST, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
