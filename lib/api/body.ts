import { readBody } from "@/lib/platform/http/body";
import { errorResponse } from "@/lib/platform/http/api-error";
import { decodeJson, isJsonObject, type JsonProblem } from "@/lib/platform/http/json-body";

/*
 * Request bodies of the public API: at most 64 KiB, read through a capped stream (a larger body is
 * refused without buffering it), strict UTF-8, JSON. The raw bytes are kept for the Idempotency-Key
 * fingerprint, which must see exactly what was sent.
 */

export const MAX_PUBLIC_BODY_BYTES = 64 * 1024;

export type RawBody = { ok: true; bytes: Uint8Array } | { ok: false; response: Response };
export type JsonBody = { ok: true; value: unknown } | { ok: false; response: Response };

export async function readRawBody(request: Request, limit = MAX_PUBLIC_BODY_BYTES): Promise<RawBody> {
  const read = await readBody(request, limit);
  if (read.ok) return { ok: true, bytes: read.bytes };
  return {
    ok: false,
    response: errorResponse(413, "payload_too_large", `The body is larger than ${limit / 1024} KiB.`, {
      details: [{ message: `Send at most ${limit} bytes.` }],
    }),
  };
}

const JSON_PROBLEMS: Record<JsonProblem, string> = {
  not_utf8: "The body is not valid UTF-8.",
  empty: "The body is empty; send a JSON object.",
  not_json: "The body is not valid JSON.",
};

/**
 * The parsed JSON object; a body that is empty, not UTF-8 or not JSON is invalid_json, a non-object invalid_request.
 */
export function parseJsonObject(bytes: Uint8Array): JsonBody {
  const decoded = decodeJson(bytes);
  if (!decoded.ok) {
    return { ok: false, response: errorResponse(400, "invalid_json", JSON_PROBLEMS[decoded.problem]) };
  }
  if (!isJsonObject(decoded.value)) {
    return {
      ok: false,
      response: errorResponse(400, "invalid_request", "The body must be a JSON object.", {
        details: [{ message: "The body must be a JSON object." }],
      }),
    };
  }
  return { ok: true, value: decoded.value };
}

/** Reads the body (capped) and parses it as a JSON object: a write without an Idempotency-Key (PATCH). */
export async function readJsonObject(request: Request): Promise<JsonBody> {
  const raw = await readRawBody(request);
  return raw.ok ? parseJsonObject(raw.bytes) : raw;
}
