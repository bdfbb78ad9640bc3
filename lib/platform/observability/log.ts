import pino, { type Logger } from "pino";
import { currentRequestId } from "./request-context";

/*
 * Structured log lines: one JSON object per line on stdout (pino), with `request_id` on every line written
 * while a request is handled (request-context.ts). LOG_LEVEL sets the level (default "info"; "silent"
 * turns logging off). Lines never carry request headers or bodies: keys, cookies and signatures travel
 * there.
 */

const KEY = Symbol.for("integration-access.logger");
type Holder = { [KEY]?: Logger };

/** A logger writing to `destination` (stdout by default); tests read its lines from a stream of their own. */
export function createLogger(destination?: pino.DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    level: process.env.LOG_LEVEL ?? "info",
    base: { pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    mixin() {
      const requestId = currentRequestId();
      return requestId ? { request_id: requestId } : {};
    },
  };
  return destination ? pino(options, destination) : pino(options);
}

/** Replaces the process's logger (a test's own destination). */
export function replaceLogger(replacement: Logger): void {
  (globalThis as Holder)[KEY] = replacement;
}

/** The process's logger (one per process, shared by every bundle chunk). */
export function logger(): Logger {
  const holder = globalThis as Holder;
  holder[KEY] ??= createLogger();
  return holder[KEY];
}

/** An error as a log field: its name and message only (stacks of database errors can carry values). */
export function errorFields(error: unknown): { err: { name: string; message: string } } {
  const { name, message } = error instanceof Error ? error : { name: "Error", message: String(error) };
  return { err: { name, message } };
}
