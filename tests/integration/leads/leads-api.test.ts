import { beforeAll, describe, expect, it } from "vitest";
import { revokeApiKey } from "@/lib/api-keys/keys";
import { buildListQuery } from "@/lib/leads/read";
import { db } from "@/lib/platform/db/client";
import { createKey } from "../../support/api-keys";
import { createAccount, type TestAccount } from "../../support/factories";
import { api, errorOf, leadCount, leadKey, storedLead } from "./client";

let owner: TestAccount;
let secret: string;
beforeAll(async () => {
  owner = await createAccount("Leads Owner");
  secret = await leadKey(owner);
});

/** The id of the n-th seeded lead of an account: ids sort like n. */
const seededId = (account: TestAccount, n: number) =>
  `lead_${account.accountId.replace(/-/g, "").slice(0, 10)}${String(n).padStart(12, "0")}`;

/** Leads created 1 ms apart (or all at one instant) in the database, so their order is known. */
async function seedLeads(account: TestAccount, count: number, sameInstant = false) {
  await db.pool.query(
    `INSERT INTO leads (id, account_id, name, email, company, stage, created_at, updated_at, stage_changed_at)
     SELECT 'lead_' || substr(replace($1::text, '-', ''), 1, 10) || lpad(n::text, 12, '0'), $1::uuid, 'Seed ' || n,
       'seed' || n || '@example.test', 'Company ' || n % 100, 'new', t, t, t
     FROM generate_series(1, $2) n,
       LATERAL (SELECT timestamptz '2026-01-01' + CASE WHEN $3 THEN interval '0' ELSE n * interval '1 millisecond' END
         AS t) x`,
    [account.accountId, count, sameInstant],
  );
}

describe("POST /api/public/leads", () => {
  it("creates a lead: 201, the lead itself, defaults for stage and source, email lower-cased", async () => {
    const response = await api.create(secret, {
      name: "  Jane Doe ",
      email: "Jane.Doe@Example.COM",
      phone: "+1 555 0100",
      company: "Acme",
      notes: "Met at the fair",
      metadata: { plan: "pro" },
      unknown_field: "ignored",
    });
    expect(response.status).toBe(201);
    expect(response.headers.get("Cache-Control")).toBe("no-store");
    const lead = await response.json();
    expect(lead).toEqual({
      id: expect.stringMatching(/^lead_[0-9A-Za-z]{22}$/),
      name: "Jane Doe",
      email: "jane.doe@example.com",
      phone: "+1 555 0100",
      company: "Acme",
      source: "api",
      stage: "new",
      notes: "Met at the fair",
      metadata: { plan: "pro" },
      conversation_id: null,
      created_at: expect.stringMatching(/Z$/),
      updated_at: lead.created_at,
      stage_changed_at: lead.created_at,
    });
    expect(response.headers.get("Location")).toBe(`/api/public/leads/${lead.id}`);
    expect((await storedLead(lead.id)).account_id).toBe(owner.accountId);
  });

  it("takes a stage and a source from the client", async () => {
    const response = await api.create(secret, { phone: "123", stage: "qualified", source: "zapier" });
    expect(response.status).toBe(201);
    expect(await response.json()).toMatchObject({ stage: "qualified", source: "zapier", name: null, email: null });
  });
});

describe("GET /api/public/leads", () => {
  it("pages newest first over several pages without skipping or repeating, and back in ascending order", async () => {
    const account = await createAccount("Pager");
    const key = await leadKey(account);
    await seedLeads(account, 23);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const response = await api.list(key, `?limit=5${cursor ? `&cursor=${cursor}` : ""}`);
      expect(response.status).toBe(200);
      const page = await response.json();
      seen.push(...page.data.map((lead: { id: string }) => lead.id));
      expect(page.has_more).toBe(page.next_cursor !== null);
      cursor = page.next_cursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(5);
    const expected = Array.from({ length: 23 }, (_, i) => seededId(account, 23 - i));
    expect(seen).toEqual(expected);

    const asc = await (await api.list(key, "?order=asc&limit=100")).json();
    expect(asc.data.map((lead: { id: string }) => lead.id)).toEqual([...expected].reverse());
    expect(asc).toMatchObject({ has_more: false, next_cursor: null });
  });

  it("breaks ties on created_at by id, so equal timestamps page exactly once", async () => {
    const account = await createAccount("Same instant");
    const key = await leadKey(account);
    await seedLeads(account, 12, true);
    const ids: string[] = [];
    let cursor: string | null = null;
    do {
      const page = await (await api.list(key, `?limit=5&order=asc${cursor ? `&cursor=${cursor}` : ""}`)).json();
      ids.push(...page.data.map((lead: { id: string }) => lead.id));
      cursor = page.next_cursor;
    } while (cursor);
    expect(ids).toHaveLength(12);
    expect(new Set(ids).size).toBe(12);
  });

  it("defaults to 25 items, newest first", async () => {
    const account = await createAccount("Default limit");
    const key = await leadKey(account);
    await seedLeads(account, 30);
    const page = await (await api.list(key)).json();
    expect(page.data).toHaveLength(25);
    expect(page.data[0].id).toBe(seededId(account, 30));
    expect(page.has_more).toBe(true);
  });

  it("filters by stage, created_after and updated_after, and searches name, email and company", async () => {
    const account = await createAccount("Filters");
    const key = await leadKey(account);
    const make = async (body: object) => (await (await api.create(key, body)).json()).id as string;
    const ada = await make({ name: "Ada Lovelace", email: "ada@engines.example", stage: "won" });
    const grace = await make({ name: "Grace Hopper", company: "Navy Compilers" });
    const linus = await make({ email: "linus@kernel.example", company: "50% Off_Shop" });
    const ids = async (query: string) =>
      (await (await api.list(key, query)).json()).data.map((lead: { id: string }) => lead.id);

    expect(await ids("?stage=won")).toEqual([ada]);
    expect(await ids("?stage=nope")).toEqual([]);
    expect(await ids("?q=LOVE")).toEqual([ada]);
    expect(await ids("?q=kernel.exam")).toEqual([linus]);
    expect(await ids("?q=compilers")).toEqual([grace]);
    expect(await ids("?q=" + encodeURIComponent("50%"))).toEqual([linus]);
    expect(await ids("?q=" + encodeURIComponent("%"))).toEqual([linus]);
    expect(await ids("?q=zzzz")).toEqual([]);

    const { rows } = await db.pool.query("SELECT created_at FROM leads WHERE id = $1", [grace]);
    expect(await ids(`?order=asc&created_after=${encodeURIComponent(rows[0].created_at.toISOString())}`)).toEqual([
      linus,
    ]);
    await db.pool.query("UPDATE leads SET updated_at = now() + interval '1 hour' WHERE id = $1", [ada]);
    const later = new Date(Date.now() + 30 * 60_000).toISOString();
    expect(await ids(`?updated_after=${later}`)).toEqual([ada]);
  });

  it("lists only the key's own account", async () => {
    const other = await createAccount("Other");
    await api.create(await leadKey(other), { name: "Not yours" });
    const page = await (await api.list(secret, "?limit=100&q=Not%20yours")).json();
    expect(page.data).toEqual([]);
  });

  it("searches a rare name through the trigram index, not by scanning the account's leads", async () => {
    const account = await createAccount("Many leads");
    await seedLeads(account, 5_000);
    // VACUUM moves the rows from the GIN pending list into the index proper, as autovacuum does.
    await db.pool.query("VACUUM ANALYZE leads");
    const { text, values } = buildListQuery(account.accountId, {
      limit: 25,
      order: "desc",
      cursor: null,
      q: "Zebulon",
    });
    const { rows } = await db.pool.query(`EXPLAIN ${text}`, values);
    const plan = rows.map((row) => row["QUERY PLAN"]).join("\n");
    expect(plan).toMatch(/Bitmap Index Scan on leads_search_trgm_idx/);
    expect(plan).not.toMatch(/Seq Scan/);
  });
});

describe("GET, PATCH and stage of one lead", () => {
  it("gets a lead by id", async () => {
    const created = await (await api.create(secret, { name: "Get Me" })).json();
    const response = await api.get(secret, created.id);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(created);
  });

  it("patches only the fields sent, merges metadata and deletes keys set to null", async () => {
    const created = await (
      await api.create(secret, { name: "Patch Me", company: "Old Co", metadata: { a: "1", b: "2" } })
    ).json();
    const response = await api.patch(secret, created.id, {
      company: "New Co",
      notes: "",
      metadata: { b: null, c: "3" },
    });
    expect(response.status).toBe(200);
    const lead = await response.json();
    expect(lead).toMatchObject({
      name: "Patch Me",
      company: "New Co",
      notes: null,
      metadata: { a: "1", c: "3" },
      stage: "new",
    });
    expect(lead.updated_at >= created.updated_at).toBe(true);
    expect(lead.stage_changed_at).toBe(created.stage_changed_at);
    expect((await storedLead(created.id)).metadata).toEqual({ a: "1", c: "3" });
  });

  it("changes the stage: 200 with the lead, stage_changed_at moves", async () => {
    const created = await (await api.create(secret, { name: "Mover" })).json();
    await db.pool.query("UPDATE leads SET stage_changed_at = now() - interval '1 day' WHERE id = $1", [created.id]);
    const response = await api.stage(secret, created.id, { stage: "won" });
    expect(response.status).toBe(200);
    const lead = await response.json();
    expect(lead).toMatchObject({ id: created.id, stage: "won" });
    expect(Date.now() - Date.parse(lead.stage_changed_at)).toBeLessThan(60_000);
    expect((await storedLead(created.id)).stage).toBe("won");
  });

  it("answers 404 for another account's lead on GET, PATCH and stage, and leaves it unchanged", async () => {
    const other = await createAccount("Victim");
    const theirs = await (
      await api.create(await leadKey(other), { name: "Private", email: "private@example.test" })
    ).json();
    for (const response of [
      await api.get(secret, theirs.id),
      await api.patch(secret, theirs.id, { name: "Hijacked" }),
      await api.stage(secret, theirs.id, { stage: "lost" }),
    ]) {
      expect(response.status).toBe(404);
      expect((await errorOf(response)).code).toBe("not_found");
    }
    expect(await storedLead(theirs.id)).toMatchObject({ name: "Private", stage: "new" });
  });

  it("answers 404 for an id that cannot exist", async () => {
    expect((await api.get(secret, "lead_nope")).status).toBe(404);
    expect((await api.get(secret, "../leads")).status).toBe(404);
  });
});

describe("GET /api/public/pipeline", () => {
  it("lists the five default stages in order", async () => {
    const response = await api.pipeline(secret);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      data: [
        { id: "new", key: "new", label: "New", position: 0 },
        { id: "contacted", key: "contacted", label: "Contacted", position: 1 },
        { id: "qualified", key: "qualified", label: "Qualified", position: 2 },
        { id: "won", key: "won", label: "Won", position: 3 },
        { id: "lost", key: "lost", label: "Lost", position: 4 },
      ],
      has_more: false,
      next_cursor: null,
    });
  });
});

describe("keys and scopes", () => {
  it("403 insufficient_scope naming write:leads for a read-only key, and nothing is stored", async () => {
    const account = await createAccount("Read only");
    const readOnly = await leadKey(account, ["read:leads"]);
    const response = await api.create(readOnly, { name: "Nope" });
    expect(response.status).toBe(403);
    expect(response.headers.get("WWW-Authenticate")).toBe('Bearer error="insufficient_scope", scope="write:leads"');
    const error = await errorOf(response);
    expect(error.code).toBe("insufficient_scope");
    expect(error.message).toContain("write:leads");
    expect(error.details[0]).toMatchObject({ scope: "write:leads" });
    expect(await leadCount(account.accountId)).toBe(0);
  });

  it("403 naming read:leads for a key without it on the read paths", async () => {
    const webhooksOnly = (await createKey(owner, { scopes: ["webhooks"] })).secret;
    for (const response of [
      await api.list(webhooksOnly),
      await api.pipeline(webhooksOnly),
      await api.get(webhooksOnly, "lead_x"),
    ]) {
      expect(response.status).toBe(403);
      expect(response.headers.get("WWW-Authenticate")).toContain('scope="read:leads"');
    }
  });

  it("401 for a revoked key, and nothing is stored", async () => {
    const account = await createAccount("Revoked");
    const key = await createKey(account, { scopes: ["read:leads", "write:leads"] });
    await revokeApiKey({ accountId: account.accountId, user: account.user }, key.id);
    const response = await api.create(key.secret, { name: "Too late" });
    expect(response.status).toBe(401);
    expect((await errorOf(response)).code).toBe("invalid_token");
    expect(await leadCount(account.accountId)).toBe(0);
  });
});
