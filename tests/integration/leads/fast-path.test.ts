import { beforeAll, describe, expect, it } from "vitest";
import { resolveFastPath } from "@/lib/server/fast-routes";
import { PUBLIC_ROUTES } from "@/lib/public-api/routes";
import { bearer } from "../../support/api-keys";
import { createAccount, type TestAccount } from "../../support/factories";
import { leadKey } from "./client";

/* The production server answers every public route from its fast path, with the handlers Next serves. */

let owner: TestAccount;
let secret: string;
beforeAll(async () => {
  owner = await createAccount("Fast Path Leads");
  secret = await leadKey(owner);
});

async function call(method: string, path: string, body?: object) {
  const match = resolveFastPath(method, path.split("?")[0]);
  if (match?.kind !== "route") throw new Error(`${method} ${path} is not a fast route: ${JSON.stringify(match)}`);
  const headers = { ...bearer(secret), "Content-Type": "application/json" };
  return match.handler(
    new Request(`http://localhost${path}`, { method, headers, body: body ? JSON.stringify(body) : undefined }),
  );
}

describe("fast path for the public API", () => {
  it("lists every public route of the table", () => {
    for (const route of PUBLIC_ROUTES) {
      const path = route.path.replace(/\{[^}]+\}/g, "lead_x");
      for (const method of Object.keys(route.methods)) expect(resolveFastPath(method, path)?.kind).toBe("route");
    }
  });

  it("creates, reads, moves and lists a lead with path params decoded", async () => {
    const created = await call("POST", "/api/public/leads", { name: "Fast Lane", email: "fast@example.test" });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    expect((await call("GET", `/api/public/leads/${id}`)).status).toBe(200);
    const moved = await call("POST", `/api/public/leads/${encodeURIComponent(id)}/stage`, { stage: "won" });
    expect(moved.status).toBe(200);
    expect(await moved.json()).toMatchObject({ id, stage: "won" });
    const list = (await (await call("GET", "/api/public/leads?limit=1")).json()) as { data: { id: string }[] };
    expect(list.data.map((lead) => lead.id)).toEqual([id]);
    expect((await call("GET", "/api/public/pipeline")).status).toBe(200);
  });

  it("answers 405 with Allow for a method the path lacks, and leaves unknown public paths to Next's JSON 404", () => {
    // The route comes along so the 405 is counted under the route's template (metrics).
    expect(resolveFastPath("DELETE", "/api/public/leads")).toMatchObject({
      kind: "method_not_allowed",
      allow: ["GET", "POST", "HEAD"],
      route: { template: "/api/public/leads" },
    });
    expect(resolveFastPath("GET", "/api/public/leads/a/b/c")).toBeNull();
    expect(resolveFastPath("GET", "/api/public/leads/")).toBeNull();
  });
});
