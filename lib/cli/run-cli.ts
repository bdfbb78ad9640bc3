import { EmbeddedDatabaseError } from "../db/embedded";

/** Runs a CLI entry point, printing known failures as plain messages instead of stack traces. */
export function runCli(main: () => Promise<number | void>): void {
  main().then(
    (code) => process.exit(code ?? 0),
    (error: unknown) => {
      if (error instanceof EmbeddedDatabaseError) {
        console.error(`\n✖ ${error.message}\n`);
      } else {
        console.error(error);
      }
      process.exit(1);
    },
  );
}
