import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { freePort } from "@/lib/platform/db/embedded";
import { placeCluster } from "@/lib/platform/db/embedded-placement";
import { startServer } from "@/lib/platform/db/embedded-process";

/*
 * A streaming replica of the embedded test server, made as an operator would without pg_basebackup
 * (the embedded binaries lack it): a physical replication slot keeps the WAL from the backup's start,
 * pg_backup_start / pg_backup_stop bracket a file copy of the running primary, and the copy starts as
 * a hot standby streaming from the primary.
 */

export type Replica = {
  url: string;
  /** Waits until the replica has replayed everything the primary has written so far. */
  catchUp: () => Promise<void>;
  pauseReplay: () => Promise<void>;
  resumeReplay: () => Promise<void>;
  stop: () => Promise<void>;
};

// Files a base backup leaves out: the running server's own, and WAL (streamed from the slot instead).
const SKIPPED = new Set(["postmaster.pid", "postmaster.opts", "standby.signal", "recovery.signal"]);
const EMPTIED = new Set([
  "pg_wal",
  "pg_replslot",
  "pg_stat_tmp",
  "pg_dynshmem",
  "pg_notify",
  "pg_serial",
  "pg_snapshots",
]);

export async function startStreamingReplica(primaryUrl: string, primaryDataDir: string): Promise<Replica> {
  const primary = new pg.Client({ connectionString: primaryUrl });
  await primary.connect();
  const slot = `test_replica_${crypto.randomBytes(4).toString("hex")}`;
  const placement = placeCluster({ dir: fs.mkdtempSync(path.join(os.tmpdir(), "replica-pg-")), persistent: false });
  const dataDir = placement.dataDir;
  try {
    await primary.query("SELECT pg_create_physical_replication_slot($1, true)", [slot]);
    await primary.query("SELECT pg_backup_start($1, true)", [slot]);
    copyCluster(primaryDataDir, dataDir);
    fs.mkdirSync(path.join(dataDir, "pg_wal", "archive_status"), { recursive: true });
    const { rows } = await primary.query<{ labelfile: string; spcmapfile: string | null }>(
      "SELECT labelfile, spcmapfile FROM pg_backup_stop(true)",
    );
    fs.writeFileSync(path.join(dataDir, "backup_label"), rows[0].labelfile);
    if (rows[0].spcmapfile) fs.writeFileSync(path.join(dataDir, "tablespace_map"), rows[0].spcmapfile);
    fs.writeFileSync(path.join(dataDir, "standby.signal"), "");
    fs.chmodSync(dataDir, 0o700);
    if (placement.runAs) chownTree(dataDir, placement.runAs.uid, placement.runAs.gid);
  } catch (error) {
    await primary.query("SELECT pg_drop_replication_slot($1)", [slot]).catch(() => {});
    await primary.end();
    fs.rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }

  const source = new URL(primaryUrl);
  const conninfo = [
    "host=127.0.0.1",
    `port=${source.port}`,
    `user=${decodeURIComponent(source.username)}`,
    `password=${decodeURIComponent(source.password)}`,
  ].join(" ");
  const port = await freePort();
  const server = await startServer(placement, port, [
    // A standby needs at least the primary's limits (the embedded server allows 200 connections).
    ...["-c", "listen_addresses=127.0.0.1", "-c", "max_connections=200", "-c", "fsync=off", "-c", "hot_standby=on"],
    ...["-c", `primary_conninfo=${conninfo}`, "-c", `primary_slot_name=${slot}`],
  ]);
  const url = new URL(primaryUrl);
  url.port = String(port);
  const replica = new pg.Client({ connectionString: url.toString() });
  await replica.connect();

  return {
    url: url.toString(),
    async catchUp() {
      const { rows } = await primary.query<{ lsn: string }>("SELECT pg_current_wal_lsn()::text AS lsn");
      const deadline = Date.now() + 15_000;
      for (;;) {
        const replayed = await replica.query<{ done: boolean }>(
          "SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn AS done",
          [rows[0].lsn],
        );
        if (replayed.rows[0].done) return;
        if (Date.now() > deadline) throw new Error("the replica did not catch up within 15 s");
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    async pauseReplay() {
      await replica.query("SELECT pg_wal_replay_pause()");
    },
    async resumeReplay() {
      await replica.query("SELECT pg_wal_replay_resume()");
    },
    async stop() {
      await replica.end().catch(() => {});
      await server.stop();
      await primary.query("SELECT pg_drop_replication_slot($1)", [slot]).catch(() => {});
      await primary.end();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Copies a running cluster's folder; files that vanish mid-copy (temporary files) are skipped. */
function copyCluster(from: string, to: string): void {
  fs.mkdirSync(to, { recursive: true, mode: 0o700 });
  for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
    if (SKIPPED.has(entry.name)) continue;
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    try {
      if (entry.isDirectory()) {
        if (EMPTIED.has(entry.name)) fs.mkdirSync(target, { mode: 0o700 });
        else copyCluster(source, target);
      } else if (entry.isFile()) fs.copyFileSync(source, target);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
  }
}

function chownTree(dir: string, uid: number, gid: number): void {
  fs.chownSync(dir, uid, gid);
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const target = path.join(dir, entry.name);
    if (entry.isDirectory()) chownTree(target, uid, gid);
    else fs.chownSync(target, uid, gid);
  }
}
