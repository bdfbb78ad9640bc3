import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";

export const bin = (name: string) => path.resolve("node_modules", ".bin", name);

/** Runs a command to completion with inherited output; resolves to its exit code. */
export function run(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: "inherit", env });
    child.on("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0)));
    child.on("error", () => resolve(1));
  });
}

/**
 * Runs a long-lived child (the Next.js server) until it exits or we are told to stop; Ctrl-C and
 * SIGTERM reach the child first, then `cleanup` stops what we started (the embedded database).
 */
export function supervise(child: ChildProcess, cleanup: () => Promise<void>): Promise<number> {
  return new Promise((resolve) => {
    let stopping = false;
    const stop = (signal: NodeJS.Signals) => {
      if (stopping) return;
      stopping = true;
      child.kill(signal);
    };
    process.on("SIGINT", () => stop("SIGINT"));
    process.on("SIGTERM", () => stop("SIGTERM"));
    child.on("exit", async (code) => {
      await cleanup().catch(() => {});
      resolve(stopping ? 0 : (code ?? 1));
    });
  });
}
