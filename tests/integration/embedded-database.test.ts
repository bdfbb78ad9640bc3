import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { EmbeddedDatabaseError, freePort, startEmbeddedPostgres } from "@/lib/db/embedded";

const tempDir = () => fs.mkdtempSync(path.join(os.tmpdir(), "embedded-test-"));

describe("embedded PostgreSQL", () => {
  it("keeps its data across a restart of a persistent cluster", async () => {
    const dir = tempDir();
    const port = await freePort();
    const first = await startEmbeddedPostgres({ dir, port, persistent: true });
    const pg = await import("pg");
    const client = new pg.default.Client({ connectionString: first.url });
    await client.connect();
    await client.query("CREATE TABLE kept (value text); INSERT INTO kept VALUES ('still here')");
    await client.end();
    await first.stop();

    const second = await startEmbeddedPostgres({ dir, port, persistent: true });
    const again = new pg.default.Client({ connectionString: second.url });
    await again.connect();
    const { rows } = await again.query("SELECT value FROM kept");
    await again.end();
    await second.stop();
    fs.rmSync(dir, { recursive: true, force: true });
    expect(rows).toEqual([{ value: "still here" }]);
  });

  it("explains what to do when its port is taken", async () => {
    const blocker = net.createServer();
    const port = await freePort();
    await new Promise<void>((resolve) => blocker.listen(port, "127.0.0.1", resolve));
    try {
      const attempt = startEmbeddedPostgres({ dir: tempDir(), port, persistent: false });
      await expect(attempt).rejects.toBeInstanceOf(EmbeddedDatabaseError);
      await expect(attempt).rejects.toThrow(/Port \d+ is already in use.*EMBEDDED_DB_PORT.*DATABASE_URL/s);
    } finally {
      blocker.close();
    }
  });

  it("explains that the data folder is in use by another running instance", async () => {
    const dir = tempDir();
    const running = await startEmbeddedPostgres({ dir, port: await freePort(), persistent: true });
    try {
      const attempt = startEmbeddedPostgres({ dir, port: await freePort(), persistent: true });
      await expect(attempt).rejects.toThrow(/already in use by another running instance/);
    } finally {
      await running.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
