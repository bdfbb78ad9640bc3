import { readBody } from "@/lib/platform/http/body";
import { errorResponse } from "@/lib/platform/http/api-error";

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

const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

function invalidJson(message: string): JsonBody {
  return { ok: false, response: errorResponse(400, "invalid_json", message) };
}

/**
 * The parsed JSON object; a body that is empty, not UTF-8 or not JSON is invalid_json, a non-object invalid_request.
 */
export function parseJsonObject(bytes: Uint8Array): JsonBody {
  let text: string;
  try {
    text = strictUtf8.decode(bytes);
  } catch {
    return invalidJson("The body is not valid UTF-8.");
  }
  if (!text.trim()) return invalidJson("The body is empty; send a JSON object.");
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return invalidJson("The body is not valid JSON.");
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return {
      ok: false,
      response: errorResponse(400, "invalid_request", "The body must be a JSON object.", {
        details: [{ message: "The body must be a JSON object." }],
      }),
    };
  }
  return { ok: true, value };
}
