import { errorResponse, type ErrorDetail } from "@/lib/platform/http/api-error";

/*
 * Request validation for the public API: zod issues become per-field `details` (lib/platform/validation.ts),
 * answered as 400 invalid_request.
 */

export { fieldErrors, parseWith, type FieldError, type Parsed } from "@/lib/platform/validation";

export function invalidRequestResponse(
  details: ErrorDetail[],
  message = "The request is not valid; see details.",
): Response {
  return errorResponse(400, "invalid_request", message, { details });
}
