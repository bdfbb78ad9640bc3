import { parse as parseSync } from "csv-parse/sync";
import { MAX_CSV_BYTES, MAX_CSV_ROWS } from "@/lib/events/csv-format";
import { handleCsvUpload } from "@/lib/events/csv-upload";
import { parseEventFields } from "@/lib/events/schema";
import { runInProcess } from "./harness";

/*
 * npm run bench:import-memory — the memory a CSV upload costs the server: files just under 5 MiB
 * (the byte cap), uploaded in 64 KiB chunks as a request body arrives, through the import route's code
 * (streaming parse, validation, then preview or import). Two shapes: full rows (every column), and
 * 100,000 short rows (the row cap), which is the costliest per byte. Reference, same run: the whole
 * file parsed at once with csv-parse/sync and validated, as the import did before it streamed. Prints
 * the peak RSS and heap above the baseline before each step, sampled every 5 ms. Run it alone.
 */

const CHUNK = 64 * 1024;

/** Rows from `line`, repeated until the file would pass 5 MiB or 100,000 rows. */
function csv(header: string, line: (index: number, day: string) => string): string {
  const lines = [header];
  let bytes = header.length + 2;
  for (let index = 0; index < MAX_CSV_ROWS; index++) {
    const next = line(index, String((index % 28) + 1).padStart(2, "0"));
    if (bytes + Buffer.byteLength(next) + 2 > MAX_CSV_BYTES) break;
    lines.push(next);
    bytes += Buffer.byteLength(next) + 2;
  }
  return lines.join("\r\n") + "\r\n";
}

const FULL = () =>
  csv(
    "title,starts_at,ends_at,description,location,url,price,recurring,status",
    (index, day) =>
      `"Event ${index}, edition ${index % 7}",2027-03-${day}T10:00:00+01:00,2027-03-${day}T12:00:00+01:00,Talk ` +
      `${index},Venue ${index % 50},https://example.com/e/${index},€${index % 90},weekly,upcoming`,
  );
const SHORT = () =>
  csv(
    "title,starts_at,location,description",
    (index, day) => `Event number ${index},2027-04-${day}T10:00:00Z,Hall ${index % 9},Talk`,
  );

/** What the import did before it streamed: the whole text, every record, every validated row at once. */
function wholeFile(bytes: Buffer): number {
  const text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  const records = parseSync(text, {
    bom: true,
    info: true,
    skip_empty_lines: true,
    relax_column_count: true,
  }) as unknown as Array<{ record: string[] }>;
  const header = records[0].record;
  const rows = records
    .slice(1)
    .map(({ record }) => Object.fromEntries(header.map((name, index) => [name, record[index]])));
  return rows.map((row) => parseEventFields(row)).filter((result) => result.ok).length;
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
    `${label.padEnd(28)} ${((performance.now() - started) / 1000).toFixed(2)} s   peak RSS ${mib(peakRss)} ` +
      `(+${mib(peakRss - base.rss)})   peak heap ${mib(peakHeap)} (+${mib(peakHeap - base.heapUsed)})`,
  );
  return result;
}

runInProcess("import-memory", async (client) => {
  let ok = true;
  console.log(
    `\nCSV upload memory, ${CHUNK / 1024} KiB chunks${
      global.gc ? "" : " (run with --expose-gc for a " + "cleaner baseline)"
    }`,
  );
  for (const [shape, make] of [
    ["full rows", FULL],
    ["short rows", SHORT],
  ] as const) {
    const bytes = Buffer.from(make());
    const rows = bytes.toString("utf8").split("\r\n").length - 2;
    const account = (
      await client.query<{ id: string }>("INSERT INTO accounts (name, plan) VALUES ('Memory', 'pro') RETURNING id")
    ).rows[0].id;
    console.log(`\n${(bytes.length / 1024 / 1024).toFixed(2)} MiB of ${shape}: ${rows.toLocaleString("en-US")} rows`);
    const upload = (intent: "preview" | "import") =>
      handleCsvUpload({ accountId: account, actor: null, intent, fileName: "memory.csv", body: chunks(bytes) });
    const preview = await measure("Preview (validate only)", () => upload("preview"));
    const imported = await measure("Import (validate + write)", () => upload("import"));
    const reference = await measure("Reference: whole-file parse", async () => wholeFile(bytes));
    const fine =
      preview.status === 200 &&
      imported.state.stage === "done" &&
      imported.state.created === rows &&
      reference === rows;
    if (!fine) console.log(`✖ unexpected result: ${JSON.stringify(imported.state).slice(0, 200)}`);
    ok &&= fine;
  }
  console.log(ok ? "\n✔ every upload succeeded" : "\n✖ some uploads failed");
  return ok ? 0 : 1;
});
