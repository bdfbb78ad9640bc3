import type pg from "pg";
import { displayParts, generateApiKey, hashApiKey } from "@/lib/api-keys/key-format";
import { insertAccount } from "../support/seed-sql";

/*
 * The leads benchmark's data: one account with the default pipeline, an API key with read:leads and
 * write:leads, LEADS leads seeded with one set-based statement, and one lead with a name no other lead
 * shares (the seeded names, emails and companies avoid the letters q, x and z, so none of the rare
 * name's trigrams is common).
 */

export type SeededLeads = { accountId: string; key: string; leads: number; rareQuery: string; rareLeadId: string };

const LEADS = Number(process.env.BENCH_LEADS ?? 1_000_000);
export const RARE_QUERY = "Xavorsky";

const FIRST_NAMES = [
  "Ada",
  "Alan",
  "Grace",
  "Linus",
  "Margaret",
  "Dennis",
  "Barbara",
  "Ken",
  "Frances",
  "John",
  "Radia",
  "Tim",
  "Katherine",
  "Edsger",
  "Hedy",
  "Niklaus",
  "Sophie",
  "Guido",
  "Anita",
  "Bjarne",
  "Mary",
  "Donald",
  "Carol",
  "Robert",
  "Lynn",
  "Martin",
  "Emma",
  "Paul",
  "Nora",
  "Oliver",
  "Hannah",
  "Lukas",
  "Mia",
  "Finn",
  "Lea",
  "Jonas",
  "Clara",
  "Elias",
  "Marie",
  "Noah",
];
const LAST_NAMES = [
  "Lovelace",
  "Turing",
  "Hopper",
  "Torvalds",
  "Hamilton",
  "Ritchie",
  "Liskov",
  "Thompson",
  "Allen",
  "Backus",
  "Perlman",
  "Berners",
  "Johnson",
  "Dijkstra",
  "Lamarr",
  "Wirth",
  "Wilson",
  "Rossum",
  "Borg",
  "Stroustrup",
  "Keller",
  "Knuth",
  "Shaw",
  "Floyd",
  "Conway",
  "Fowler",
  "Becker",
  "Schmidt",
  "Fischer",
  "Weber",
  "Meyer",
  "Wagner",
  "Hoffmann",
  "Braun",
  "Kr\u00fcger",
  "Hartmann",
  "Lange",
  "Werner",
  "Lehmann",
  "Kaiser",
];
const COMPANIES = [
  "Analytical Engines",
  "Bletchley Labs",
  "Cobol Works",
  "Kernel Partners",
  "Apollo Guidance",
  "Bell Systems",
  "Clu Software",
  "Shell Tools",
  "Fortran Group",
  "Internet Archive",
  "Web Foundry",
  "Orbital Mechanics",
  "Semaphore Inc",
  "Pascal Studio",
  "Python Guild",
  "Borland Retail",
  "Template Co",
  "Typeset Publishing",
  "Mainframe Media",
  "Life Games",
  "Refactor Ltd",
  "Nordwind GmbH",
  "Sonnenberg AG",
  "Rheinhafen",
  "Bergland Logistik",
  "Elbe Digital",
  "Main Consulting",
  "Alster Health",
  "Isar Finance",
  "Spree Design",
];
const DOMAINS = ["example.com", "example.org", "mail.example", "corp.example", "example.net"];
const SOURCES = ["api", "chat", "import", "dashboard", "website-form"];

const textArray = (values: readonly string[]) =>
  `ARRAY[${values.map((value) => `'${value.replace(/'/g, "''")}'`).join(",")}]::text[]`;

/**
 * One INSERT … SELECT over generate_series: a lead every 30 s back from now (about a year), stages from
 * the account's pipeline (most leads early in it), a tenth without company, metadata on every fifth.
 * Ids are `lead_` and 22 base62 characters taken from a hash of the row number, so they are unordered
 * with respect to created_at, as random ids are.
 */
function seedSql(): string {
  return `
WITH stages AS (SELECT array_agg(key ORDER BY position, key) AS keys FROM pipeline_stages WHERE account_id = $1)
INSERT INTO leads (id, account_id, name, email, phone, company, source, stage, notes, metadata, created_at,
  updated_at, stage_changed_at)
SELECT 'lead_' || substr(translate(encode(sha256(('bench-lead-' || g)::bytea), 'base64'), '+/=', ''), 1, 22),
       $1,
       first_name || ' ' || last_name,
       lower(first_name) || '.' || lower(last_name) || '.' || g || '@' || (${textArray(DOMAINS)})[g %
         ${DOMAINS.length} + 1],
       CASE WHEN g % 3 = 0 THEN NULL ELSE '+49 30 ' || lpad((g % 10000000)::text, 7, '0') END,
       CASE WHEN g % 10 = 0 THEN NULL ELSE (${textArray(COMPANIES)})[(g / 7) % ${COMPANIES.length} + 1] END,
       (${textArray(SOURCES)})[g % ${SOURCES.length} + 1],
       stages.keys[least(array_length(stages.keys, 1), 1 + floor(array_length(stages.keys, 1) * power((g % 997) /
         997.0, 2))::int)],
       CASE WHEN g % 50 = 0 THEN 'Asked for a call back next week.' END,
       CASE WHEN g % 5 = 0 THEN jsonb_build_object('utm_source', 'newsletter', 'plan', 'pro') ELSE '{}'::jsonb END,
       created, created, created
FROM generate_series(1, $2::int) AS g
CROSS JOIN stages
CROSS JOIN LATERAL (
  SELECT (${textArray(FIRST_NAMES)})[g % ${FIRST_NAMES.length} + 1] AS first_name,
         (${textArray(LAST_NAMES)})[(g / ${FIRST_NAMES.length}) % ${LAST_NAMES.length} + 1] AS last_name,
         now() - g * interval '30 seconds' AS created
) AS person`;
}

export async function seedLeads(client: pg.Client): Promise<SeededLeads> {
  const started = Date.now();
  const accountId = await insertAccount(client, "Benchmark leads", "pro");
  const key = generateApiKey();
  const { prefix, last4 } = displayParts(key);
  await client.query(
    "INSERT INTO api_keys (account_id, name, key_hash, prefix, last4, scopes) VALUES ($1, " +
      "'Leads benchmark', $2, $3, $4, ARRAY['read:leads', 'write:leads'])",
    [accountId, hashApiKey(key), prefix, last4],
  );

  // Room for the GIN pending list to be merged in large batches rather than every 4 MB.
  await client.query("SET work_mem = '64MB'");
  await client.query("SET maintenance_work_mem = '256MB'");
  await client.query(seedSql(), [accountId, LEADS]);
  const rare = await client.query<{ id: string }>(
    `INSERT INTO leads (id, account_id, name, email, company, source, stage, created_at, updated_at, stage_changed_at)
     VALUES ('lead_' || substr(translate(encode(sha256('bench-rare-lead'::bytea), 'base64'), '+/=', ''), 1, 22), $1,
       'Quinzel ${RARE_QUERY}',
             'quinzel@${RARE_QUERY.toLowerCase()}.example', '${RARE_QUERY} Zinc', 'api', 'qualified',
             now() - interval '123 days', now() - interval '123 days', now() - interval '123 days')
     RETURNING id`,
    [accountId],
  );
  const inserted = Date.now();
  // Flushes the trigram index's pending list (searches would otherwise scan it) and gives the planner statistics.
  await client.query("VACUUM ANALYZE leads");
  const seconds = (ms: number) => (ms / 1000).toFixed(1);
  console.log(
    `▸ Seeded ${(LEADS + 1).toLocaleString("en-US")} leads in ${seconds(Date.now() - started)} s (insert ` +
      `${seconds(inserted - started)} s, VACUUM ANALYZE ${seconds(Date.now() - inserted)} s)`,
  );
  return { accountId, key, leads: LEADS + 1, rareQuery: RARE_QUERY, rareLeadId: rare.rows[0].id };
}
