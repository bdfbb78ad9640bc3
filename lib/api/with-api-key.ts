import "server-only";
import { db, isDatabaseUnavailable } from "@/lib/platform/db/client";
import { errorResponse, internalErrorResponse, unavailableResponse } from "@/lib/platform/http/api-error";
import { isOverLimit, rateLimitedResponse, rateLimitHeaders, type RateState } from "@/lib/platform/http/rate-limit";
import { authenticateApiKey, type ApiKeyPrincipal, type AuthFailure } from "@/lib/api-keys/authenticate";
import type { Scope } from "@/lib/api-keys/scopes";
import type { Failure } from "@/lib/platform/result";
import { errorFields, logger } from "@/lib/platform/observability/log";
import { inSpan, tracingActive } from "@/lib/platform/observability/tracing";

/*
 * The one wrapper for every bearer-key route: authentication, the per-key rate limit, the scope check and
 * error mapping live here, so a route handler only ever sees a verified account and key and cannot forget a check.
 * Route handlers must scope every query by `account.id` and answer 404 for anything outside it, so a
 * key of another account cannot learn whether a resource exists.
 */

export type ApiKeyContext<Params> = ApiKeyPrincipal & { params: Promise<Params> };

export type ApiKeyHandler<Params> = (request: Request, context: ApiKeyContext<Params>) => Promise<Response> | Response;

export type WithApiKeyOptions = {
  /**
   * The scope the route needs, or null for routes any valid key may call (the connection test). Required so that no
   * route is open by omission.
   */
  scope: Scope | null;
};

export function unauthorizedResponse(failure: Failure<AuthFailure>): Response {
  // RFC 6750: a request without credentials gets a challenge without an error attribute.
  const missing = failure.code === "missing";
  const challenge = missing ? 'Bearer realm="api"' : 'Bearer realm="api", error="invalid_token"';
  return errorResponse(401, missing ? "unauthorized" : "invalid_token", failure.message, {
    headers: { "WWW-Authenticate": challenge },
  });
}

export function insufficientScopeResponse(scope: Scope): Response {
  return errorResponse(
    403,
    "insufficient_scope",
    `This API key does not have the ${scope} scope, which this request needs.`,
    {
      details: [{ scope, message: `Create a key with the ${scope} scope for this integration.` }],
      headers: { "WWW-Authenticate": `Bearer error="insufficient_scope", scope="${scope}"` },
    },
  );
}

export function notFoundResponse(what = "resource"): Response {
  return errorResponse(404, "not_found", `The ${what} was not found.`);
}

/** Every public API response is private to its key (no shared or browser caching) and tells the key's rate budget. */
function finalise(response: Response, rate: RateState): Response {
  const extra = { "Cache-Control": "no-store", ...rateLimitHeaders(rate) };
  try {
    for (const [name, value] of Object.entries(extra)) response.headers.set(name, value);
    return response;
  } catch {
    // Some responses (e.g. Response.redirect) have immutable headers; copy them.
    const headers = new Headers(response.headers);
    for (const [name, value] of Object.entries(extra)) headers.set(name, value);
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  }
}

function logFailure(error: unknown) {
  // Name and message only: never the request, whose headers carry the key.
  logger().error(errorFields(error), "public api: unexpected error");
}

export function withApiKey<Params = Record<string, never>>(handler: ApiKeyHandler<Params>, options: WithApiKeyOptions) {
  const authenticatedRoute = async function (request: Request, route: { params: Promise<Params> }): Promise<Response> {
    let principal: ApiKeyPrincipal;
    let rate: RateState;
    try {
      const authorization = request.headers.get("authorization");
      const result = tracingActive()
        ? await inSpan("api_key.authenticate", {}, () => authenticateApiKey(db.pool, authorization))
        : await authenticateApiKey(db.pool, authorization);
      if (!result.ok) return unauthorizedResponse(result);
      ({ principal, rate } = result);
    } catch (error) {
      if (isDatabaseUnavailable(error)) return unavailableResponse();
      logFailure(error);
      return internalErrorResponse();
    }
    if (isOverLimit(rate)) return rateLimitedResponse(rate, "this API key");
    if (options.scope && !principal.key.scopes.includes(options.scope)) return insufficientScopeResponse(options.scope);
    try {
      const context = { ...principal, params: route?.params ?? Promise.resolve({} as Params) };
      const run = async () => handler(request, context);
      return finalise(tracingActive() ? await inSpan("public_api.handle", {}, run) : await run(), rate);
    } catch (error) {
      if (isDatabaseUnavailable(error)) return unavailableResponse();
      logFailure(error);
      return internalErrorResponse();
    }
  };
  // The scope travels with the handler, so the OpenAPI test can check each route's documented scope.
  return Object.assign(authenticatedRoute, { requiredScope: options.scope } as const);
}
