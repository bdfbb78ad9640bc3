/*
 * The one error shape of both HTTP APIs (the events webhook and the public API):
 *   {"ok": false, "error": {"code": "…", "message": "…", "details": […]}}
 * Messages are written for the integrator; internal error text never reaches a client.
 */

import type { ApiErrorCode } from "./error-codes";

export type ErrorDetail = { field?: string; message: string; [key: string]: unknown };

export type ApiErrorBody = { ok: false; error: { code: ApiErrorCode; message: string; details: ErrorDetail[] } };

export function errorBody(code: ApiErrorCode, message: string, details: ErrorDetail[] = []): ApiErrorBody {
  return { ok: false, error: { code, message, details } };
}

export function errorResponse(
  status: number,
  code: ApiErrorCode,
  message: string,
  options: { details?: ErrorDetail[]; headers?: HeadersInit } = {},
): Response {
  const headers = new Headers(options.headers);
  headers.set("Content-Type", "application/json; charset=utf-8");
  headers.set("Cache-Control", "no-store");
  return new Response(JSON.stringify(errorBody(code, message, options.details)), { status, headers });
}

export function jsonResponse(body: unknown, init: { status?: number; headers?: HeadersInit } = {}): Response {
  const headers = new Headers(init.headers);
  headers.set("Content-Type", "application/json; charset=utf-8");
  headers.set("Cache-Control", "no-store");
  return new Response(JSON.stringify(body), { status: init.status ?? 200, headers });
}

/** 503 for a database that cannot be reached: a retryable answer, never a 200 for an uncommitted change. */
export function unavailableResponse(): Response {
  return errorResponse(503, "unavailable", "The service is temporarily unavailable. Retry shortly.", {
    headers: { "Retry-After": "5" },
  });
}

/** Unknown paths under /api/ answer this, never an HTML page. */
export function apiNotFoundResponse(): Response {
  return errorResponse(404, "not_found", "No API endpoint has this path. Check the URL.");
}

/** A known path asked with a method it does not take; `Allow` lists the ones it does. */
export function methodNotAllowedResponse(allow: readonly string[]): Response {
  return errorResponse(405, "method_not_allowed", `This endpoint accepts ${allow.join(", ")} only.`, {
    headers: { Allow: allow.join(", ") },
  });
}

export function internalErrorResponse(): Response {
  return errorResponse(500, "internal_error", "Something went wrong on our side. Retry shortly.");
}
