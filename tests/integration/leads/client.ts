import { GET as getLeadExport, PATCH as patchLeadExport } from "@/app/api/public/leads/[id]/route";
import { POST as stageExport } from "@/app/api/public/leads/[id]/stage/route";
import { GET as listExport, POST as createExport } from "@/app/api/public/leads/route";
import { GET as pipelineExport } from "@/app/api/public/pipeline/route";
import type { Scope } from "@/lib/api-keys/scopes";
import { db } from "@/lib/db/client";
import { bearer, createKey } from "../../support/api-keys";
import type { TestAccount } from "../../support/factories";

/* Calls the public leads routes the way Next does: a Request and a params promise. */

const BASE = "http://localhost/api/public";

type Body = string | object | undefined;
type Options = { headers?: Record<string, string> };

function request(method: string, path: string, secret: string, body?: Body, options: Options = {}): Request {
  const headers: Record<string, string> = { ...bearer(secret), ...options.headers };
  if (body !== undefined) headers["Content-Type"] ??= "application/json";
  return new Request(`${BASE}${path}`, { method, headers, body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body) });
}

const noParams = { params: Promise.resolve({}) } as { params: Promise<Record<string, never>> };
const idParams = (id: string) => ({ params: Promise.resolve({ id }) });

export const api = {
  list: (secret: string, query = "") => listExport(request("GET", `/leads${query}`, secret), noParams),
  create: (secret: string, body: Body, options?: Options) => createExport(request("POST", "/leads", secret, body, options), noParams),
  get: (secret: string, id: string) => getLeadExport(request("GET", `/leads/${id}`, secret), idParams(id)),
  patch: (secret: string, id: string, body: Body, options?: Options) => patchLeadExport(request("PATCH", `/leads/${id}`, secret, body, options), idParams(id)),
  stage: (secret: string, id: string, body: Body, options?: Options) => stageExport(request("POST", `/leads/${id}/stage`, secret, body, options), idParams(id)),
  pipeline: (secret: string) => pipelineExport(request("GET", "/pipeline", secret), noParams),
};

export async function leadKey(owner: TestAccount, scopes: Scope[] = ["read:leads", "write:leads"]): Promise<string> {
  return (await createKey(owner, { name: "Leads", scopes })).secret;
}

export async function leadCount(accountId: string): Promise<number> {
  const { rows } = await db.pool.query<{ count: string }>("SELECT count(*) FROM leads WHERE account_id = $1", [accountId]);
  return Number(rows[0].count);
}

export async function storedLead(id: string) {
  const { rows } = await db.pool.query("SELECT * FROM leads WHERE id = $1", [id]);
  return rows[0] ?? null;
}

export async function errorOf(response: Response) {
  const body = (await response.json()) as { ok: false; error: { code: string; message: string; details: Record<string, unknown>[] } };
  return body.error;
}
