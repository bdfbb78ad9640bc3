import { bearer } from "./api-keys";

/* Calls public API route exports the way Next does: a Request and a params promise. */

const BASE = "http://localhost/api/public";

export type Body = string | object | undefined;
export type Options = { headers?: Record<string, string> };

/** A request to `/api/public<path>` with the key; an object body is sent as JSON. */
export function publicRequest(
  method: string,
  path: string,
  secret: string,
  body?: Body,
  options: Options = {},
): Request {
  const headers: Record<string, string> = { ...bearer(secret), ...options.headers };
  if (body !== undefined) headers["Content-Type"] ??= "application/json";
  return new Request(`${BASE}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
}

export const noParams = { params: Promise.resolve({}) } as { params: Promise<Record<string, never>> };
export const idParams = (id: string) => ({ params: Promise.resolve({ id }) });

/** The `error` of the one error body. */
export async function errorOf(response: Response) {
  const body = (await response.json()) as {
    ok: false;
    error: { code: string; message: string; details: Record<string, unknown>[] };
  };
  return body.error;
}
