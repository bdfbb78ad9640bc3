/*
 * A request body's JSON: strict UTF-8 (bytes that are not UTF-8 are refused, never replaced), then
 * JSON.parse. Each caller words its own refusal; a blank body is told apart only once parsing has failed,
 * so a valid body costs one decode and one parse.
 */

export type JsonProblem = "not_utf8" | "empty" | "not_json";
export type DecodedJson = { ok: true; value: unknown } | { ok: false; problem: JsonProblem };

const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

export function decodeJson(bytes: Uint8Array): DecodedJson {
  let text: string;
  try {
    text = strictUtf8.decode(bytes);
  } catch {
    return { ok: false, problem: "not_utf8" };
  }
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false, problem: text.trim() ? "not_json" : "empty" };
  }
}

/** Whether a decoded body is a JSON object (not an array, not null). */
export const isJsonObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);
