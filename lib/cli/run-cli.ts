import { EmbeddedDatabaseError } from "../platform/db/embedded";

// File-system refusals are the user's environment, not a bug: say which path, not a stack trace.
const ENVIRONMENT_CODES = new Set(["EACCES", "EPERM", "EROFS", "ENOSPC"]);

/** Runs a CLI entry point, printing known failures as plain messages instead of stack traces. */
export function runCli(main: () => Promise<number | void>): void {
  main().then(
    (code) => process.exit(code ?? 0),
    (error: unknown) => {
      const code = (error as NodeJS.ErrnoException | null)?.code;
      if (error instanceof EmbeddedDatabaseError) {
        console.error(`\n✖ ${error.message}\n`);
      } else if (code && ENVIRONMENT_CODES.has(code)) {
        const file = (error as NodeJS.ErrnoException).path ?? "a file";
        console.error(
          `\n✖ ${file} cannot be written or read (${code}). Run from a folder you can write, ` +
            `or set DATA_DIR to one (the generated secrets and the embedded database live there).\n`,
        );
      } else {
        console.error(error);
      }
      process.exit(1);
    },
  );
}
