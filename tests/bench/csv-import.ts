import pg from "pg";
import { handleCsvUpload } from "@/lib/events/csv-upload";
import { runInProcess } from "./harness";

/*
 * npm run bench:import — the CSV import of 10,000 rows (streaming parse, validate with the webhook's
 * schema, upsert in batches), the same code the dashboard's import route runs, twice: into an empty account (all
 * created) and again (all updated). Reference, same run: the same rows written with one bare
 * INSERT … SELECT FROM unnest, no parsing and no validation — the floor for getting them into PostgreSQL.
 */

const ROWS = Number(process.env.BENCH_ROWS ?? 10_000);
const TARGET_SECONDS = 10;

function csv(rows: number): string {
  const lines = ["title,starts_at,ends_at,description,location,url,price,recurring,status"];
  for (let index = 0; index < rows; index++) {
    const day = String((index % 28) + 1).padStart(2, "0");
    const hour = String(index % 24).padStart(2, "0");
    const recurring = ["", "weekly", "monthly"][index % 3];
    lines.push(
      `"Event ${index}, edition ${index % 7}",2027-03-${day}T${hour}:00:00+01:00,,"Description of event ${index}",` +
        `Venue ${index % 50},https://example.com/e/${index},€${index % 90},${recurring},upcoming`,
    );
  }
  return lines.join("\r\n") + "\r\n";
}

async function account(client: pg.Client, name: string): Promise<string> {
  const result = await client.query<{ id: string }>(
    "INSERT INTO accounts (name, plan) VALUES ($1, 'pro') RETURNING id",
    [name],
  );
  return result.rows[0].id;
}

runInProcess("import", async (client) => {
  const text = csv(ROWS);
  const ours = await account(client, "Import");
  const seconds = async (work: () => Promise<unknown>) => {
    const started = performance.now();
    await work();
    return (performance.now() - started) / 1000;
  };
  let summary = { created: 0, updated: 0, failed: 0 };
  const importOnce = async () => {
    const { state } = await handleCsvUpload({
      accountId: ours,
      actor: null,
      intent: "import",
      fileName: "bench.csv",
      body: Buffer.from(text),
    });
    if (state.stage !== "done") throw new Error(`unexpected answer: ${JSON.stringify(state).slice(0, 300)}`);
    if (state.problems.length) throw new Error(`unexpected problems: ${JSON.stringify(state.problems.slice(0, 3))}`);
    summary = state;
  };
  const firstSeconds = await seconds(importOnce);
  const first = summary;
  const againSeconds = await seconds(importOnce);
  const again = summary;

  const reference = await account(client, "Reference");
  const referenceSeconds = await seconds(() =>
    client.query(
      `INSERT INTO events (account_id, title, starts_at, description, location, url, price, recurring)
       SELECT $1, 'Event ' || g || ', edition ' || (g % 7), timestamptz '2027-03-01 00:00+01' + (g % 28) * interval
         '1 day' + (g % 24) * interval '1 hour',
              'Description of event ' || g, 'Venue ' || (g % 50), 'https://example.com/e/' || g, '€' || (g % 90),
                (ARRAY['', 'weekly', 'monthly'])[g % 3 + 1]
       FROM generate_series(0, $2::int - 1) AS g`,
      [reference, ROWS],
    ),
  );

  const rate = (value: number) => `${Math.round(ROWS / value).toLocaleString("en-US")} rows/s`;
  console.log(
    `\nCSV import benchmark: ${ROWS.toLocaleString("en-US")} rows, ` +
      `${(Buffer.byteLength(text) / 1024).toFixed(0)} KiB`,
  );
  console.log(
    `Import into an empty account   ${firstSeconds.toFixed(2)} s  (${rate(firstSeconds)})  ` +
      `created ${first.created}, updated ${first.updated}, failed ${first.failed}`,
  );
  console.log(
    `Same file again (all updates)  ${againSeconds.toFixed(2)} s  (${rate(againSeconds)})  ` +
      `created ${again.created}, updated ${again.updated}, failed ${again.failed}`,
  );
  console.log(`Reference: bare INSERT         ${referenceSeconds.toFixed(2)} s  (${rate(referenceSeconds)})`);
  console.log(`Ratio reference/ours (first import): ${(referenceSeconds / firstSeconds).toFixed(2)}`);
  const ok =
    firstSeconds < TARGET_SECONDS && againSeconds < TARGET_SECONDS && first.created === ROWS && again.updated === ROWS;
  console.log(
    `Target: ${ROWS.toLocaleString("en-US")} rows in under ${TARGET_SECONDS} s: ${ok ? "✔ met" : "✖ missed"}`,
  );
  return ok ? 0 : 1;
});
