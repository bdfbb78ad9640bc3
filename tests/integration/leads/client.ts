import { GET as getLeadExport, PATCH as patchLeadExport } from "@/app/api/public/leads/[id]/route";
import { POST as stageExport } from "@/app/api/public/leads/[id]/stage/route";
import { GET as listExport, POST as createExport } from "@/app/api/public/leads/route";
import { GET as pipelineExport } from "@/app/api/public/pipeline/route";
import type { Scope } from "@/lib/api-keys/scopes";
import { db } from "@/lib/platform/db/client";
import { createKey } from "../../support/api-keys";
import { errorOf, idParams, noParams, publicRequest, type Body, type Options } from "../../support/public-api";
import type { TestAccount } from "../../support/factories";

export const api = {
  list: (secret: string, query = "") => listExport(publicRequest("GET", `/leads${query}`, secret), noParams),
  create: (secret: string, body: Body, options?: Options) =>
    createExport(publicRequest("POST", "/leads", secret, body, options), noParams),
  get: (secret: string, id: string) => getLeadExport(publicRequest("GET", `/leads/${id}`, secret), idParams(id)),
  patch: (secret: string, id: string, body: Body, options?: Options) =>
    patchLeadExport(publicRequest("PATCH", `/leads/${id}`, secret, body, options), idParams(id)),
  stage: (secret: string, id: string, body: Body, options?: Options) =>
    stageExport(publicRequest("POST", `/leads/${id}/stage`, secret, body, options), idParams(id)),
  pipeline: (secret: string) => pipelineExport(publicRequest("GET", "/pipeline", secret), noParams),
};

export async function leadKey(owner: TestAccount, scopes: Scope[] = ["read:leads", "write:leads"]): Promise<string> {
  return (await createKey(owner, { name: "Leads", scopes })).secret;
}

export async function leadCount(accountId: string): Promise<number> {
  const { rows } = await db.pool.query<{ count: string }>("SELECT count(*) FROM leads WHERE account_id = $1", [
    accountId,
  ]);
  return Number(rows[0].count);
}

export async function storedLead(id: string) {
  const { rows } = await db.pool.query("SELECT * FROM leads WHERE id = $1", [id]);
  return rows[0] ?? null;
}

export { errorOf };
