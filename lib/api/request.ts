import type { z } from "zod";
import { jsonResponse, type ErrorDetail } from "@/lib/platform/http/api-error";
import { readJsonObject } from "./body";
import { queryObject } from "./list";
import { invalidRequestResponse, parseWith } from "./validation";
import { notFoundResponse, type ApiKeyContext } from "./with-api-key";

/*
 * The steps a resource's handlers share: its query string or JSON body validated (a refusal is the answer
 * to send as it is), and the GET of one resource by id. Writes under an Idempotency-Key read their body
 * through lib/api/idempotency.ts instead, which must see the raw bytes.
 */

/** A part of the request, validated; or the answer that refuses it. */
export type Checked<T> = { ok: true; value: T } | { ok: false; response: Response };

/** How a resource validates: parseWith, or a variant that keeps more of each issue in its detail. */
export type Parser = <S extends z.ZodType>(
  schema: S,
  input: unknown,
) => { ok: true; value: z.output<S> } | { ok: false; details: ErrorDetail[] };

/** The query string validated by `schema`, or 400 invalid_request naming each field. */
export function readQuery<S extends z.ZodType>(
  request: Request,
  schema: S,
  parse: Parser = parseWith,
): Checked<z.output<S>> {
  const query = parse(schema, queryObject(new URL(request.url)));
  return query.ok ? query : { ok: false, response: invalidRequestResponse(query.details) };
}

/**
 * The JSON object body (read capped, lib/api/body.ts) validated by `schema`, with the body as it was sent;
 * or the refusal (413, 400 invalid_json, 400 invalid_request).
 */
export async function readJsonInput<S extends z.ZodType>(
  request: Request,
  schema: S,
  parse: Parser = parseWith,
): Promise<{ ok: true; value: z.output<S>; body: Record<string, unknown> } | { ok: false; response: Response }> {
  const json = await readJsonObject(request);
  if (!json.ok) return json;
  const input = parse(schema, json.value);
  if (!input.ok) return { ok: false, response: invalidRequestResponse(input.details) };
  return { ok: true, value: input.value, body: json.value as Record<string, unknown> };
}

/**
 * GET …/{id}: the resource of the key's account with this id, serialized; 404 naming `noun` for an id that is
 * unknown or of another account.
 */
export function getByIdRoute<T>(
  noun: string,
  find: (accountId: string, id: string) => Promise<T | null>,
  serialize: (found: T) => unknown,
) {
  return async (_request: Request, context: ApiKeyContext<{ id: string }>): Promise<Response> => {
    const found = await find(context.account.id, (await context.params).id);
    return found ? jsonResponse(serialize(found)) : notFoundResponse(noun);
  };
}
