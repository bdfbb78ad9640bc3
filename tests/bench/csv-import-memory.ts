import pg from "pg";
import { db } from "@/lib/db/client";
import { MAX_CSV_BYTES, MAX_CSV_ROWS } from "@/lib/events/csv-format";
import { handleCsvUpload } from "@/lib/events/csv-upload";
import { runMain, startBenchDatabase } from "./harness";

/*
 * npm run bench:import-memory — the memory a CSV upload costs the server: a file just under 5 MiB
 * (the byte cap), uploaded in 64 KiB chunks as a request body arrives, through the import route's code
 * (streaming parse, validation, then preview or import). Prints the peak RSS and heap above the
 * process's baseline, sampled every 5 ms. Run it alone: the figures are per process.
 */

const CHUNK = 64 * 1024;

/** Rows with every column filled, repeated until the file reaches 5 MiB or 100,000 rows. */
function csv(): string {
  const lines = ["title,starts_at,ends_at,description,location,url,price,recurring,status"];
  let bytes = lines[0].length + 2;
  for (let index = 0; index < MAX_CSV_ROWS; index++) {
    const day = String((index % 28) + 1).padStart(2, "0");
    const line = `"Event ${index}, edition ${index % 7}",2027-03-${day}T10:00:00+01:00,2027-03-${day}T12:00:00+01:00,Talk ${index},Venue ${index % 50},https://example.com/e/${index},€${index % 90},weekly,upcoming`;
    if (bytes + line.length + 8 > MAX_CSV_BYTES) break;
    lines.push(line);
    bytes += Buffer.byteLength(line) + 2;
  }
  return lines.join("\r\n") + "\r\n";
}

async function* chunks(bytes: Buffer) {
  for (let start = 0; start < bytes.length; start += CHUNK) {
    yield bytes.subarray(start, start + CHUNK);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

async function measure<T>(label: string, work: () => Promise<T>): Promise<T> {
  global.gc?.();
  const base = process.memoryUsage();
  let peakRss = base.rss;
  let peakHeap = base.heapUsed;
  const timer = setInterval(() => {
    const now = process.memoryUsage();
    peakRss = Math.max(peakRss, now.rss);
    peakHeap = Math.max(peakHeap, now.heapUsed);
  }, 5);
  const started = performance.now();
  const result = await work();
  clearInterval(timer);
  const now = process.memoryUsage();
  peakRss = Math.max(peakRss, now.rss);
  peakHeap = Math.max(peakHeap, now.heapUsed);
  const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;
  console.log(
    `${label.padEnd(28)} ${((performance.now() - started) / 1000).toFixed(2)} s   peak RSS ${mib(peakRss)} (+${mib(peakRss - base.rss)})   peak heap ${mib(peakHeap)} (+${mib(peakHeap - base.heapUsed)})`,
  );
  return result;
}

runMain(async () => {
  const database = await startBenchDatabase("import-memory");
  process.env.DATABASE_URL = database.url;
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    const bytes = Buffer.from(csv());
    const rows = bytes.toString("utf8").split("\r\n").length - 2;
    const account = (await client.query<{ id: string }>("INSERT INTO accounts (name, plan) VALUES ('Memory', 'pro') RETURNING id")).rows[0].id;
    console.log(`\nCSV upload memory: ${(bytes.length / 1024 / 1024).toFixed(2)} MiB, ${rows.toLocaleString("en-US")} rows, ${CHUNK / 1024} KiB chunks${global.gc ? "" : " (run with --expose-gc for a cleaner baseline)"}`);
    const upload = (intent: "preview" | "import") => handleCsvUpload({ accountId: account, actor: null, intent, fileName: "memory.csv", body: chunks(bytes) });
    const preview = await measure("Preview (validate only)", () => upload("preview"));
    const imported = await measure("Import (validate + write)", () => upload("import"));
    const ok = preview.status === 200 && imported.status === 200 && imported.state.stage === "done" && imported.state.created === rows;
    console.log(ok ? "✔ both uploads succeeded" : `✖ unexpected result: ${JSON.stringify(imported.state).slice(0, 200)}`);
    return ok ? 0 : 1;
  } finally {
    await client.end();
    await db.pool.end();
    await database.dispose();
  }
});
