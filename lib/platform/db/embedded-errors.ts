/** A friendly error: the CLI prints `message` alone, without a stack trace. One paragraph, ending in what to do. */
export class EmbeddedDatabaseError extends Error {}

/** initdb or postgres failed: what it printed, and the spawn error code when it could not even run. */
export class ProcessFailure extends Error {
  constructor(
    readonly step: "initdb" | "postgres",
    readonly output: string,
    readonly code?: string,
  ) {
    super(`${step} failed${code ? ` (${code})` : ""}`);
  }
}

const OWN_DATABASE = "or set DATABASE_URL to a PostgreSQL of your own";

export function portInUse(port: number): EmbeddedDatabaseError {
  return new EmbeddedDatabaseError(
    `Port ${port} is already in use, so the embedded PostgreSQL cannot start. ` +
      `Stop whatever is listening there, set EMBEDDED_DB_PORT to another port (or unset it to let a free port ` +
      `be picked), ${OWN_DATABASE}.`,
  );
}

export function dataFolderInUse(dataDir: string): EmbeddedDatabaseError {
  return new EmbeddedDatabaseError(
    `The embedded database in ${dataDir} is already in use by another running instance of this checkout. ` +
      `Stop that instance first (Ctrl-C in its terminal), ${OWN_DATABASE}.`,
  );
}

/** Turns what initdb/postgres printed into one paragraph that says what to do. */
export function explainFailure(
  failure: ProcessFailure,
  context: { dataDir: string; binDir: string; port: number; user: string },
): EmbeddedDatabaseError {
  const { output, step } = failure;
  const { dataDir, binDir, user } = context;
  if (failure.code === "EACCES" || failure.code === "ENOENT") {
    return new EmbeddedDatabaseError(
      `The PostgreSQL program ${binDir}/bin/${step} cannot be run by the "${user}" user (${failure.code}). ` +
        `Reinstall the dependencies (\`rm -rf node_modules && npm install\`), ` +
        `make sure the folder is readable and executable by that user, ${OWN_DATABASE}.`,
    );
  }
  if (/lock file "postmaster\.pid" already exists|another server might be running/i.test(output))
    return dataFolderInUse(dataDir);
  if (/could not bind|Address already in use|could not create any TCP\/IP sockets/i.test(output))
    return portInUse(context.port);
  if (/exists but is not empty/i.test(output)) {
    return new EmbeddedDatabaseError(
      `The folder ${dataDir} holds files but no PostgreSQL database, so the embedded database cannot be ` +
        `created there. ` +
        `Move those files away or delete the folder (it is recreated empty), set DATA_DIR to another folder, ` +
        `${OWN_DATABASE}.`,
    );
  }
  if (/database files are incompatible with server/i.test(output)) {
    return new EmbeddedDatabaseError(
      `The data in ${dataDir} was written by another major version of PostgreSQL than the embedded one, ` +
        `which cannot read it. ` +
        `Dump it with that version's pg_dump and delete the folder, set DATA_DIR to another folder, ${OWN_DATABASE}.`,
    );
  }
  if (/Permission denied|wrong ownership|invalid permissions/i.test(output)) {
    return new EmbeddedDatabaseError(
      `The embedded PostgreSQL, running as the "${user}" user, may not use its data folder ${dataDir} ` +
        `(${lastLine(output)}). ` +
        `Give that user the folder (\`chown -R ${user} ${dataDir}\`, mode 0700), ` +
        `set DATA_DIR to a folder it can write, ${OWN_DATABASE}.`,
    );
  }
  const what = step === "initdb" ? "could not create its database" : "could not start";
  return new EmbeddedDatabaseError(
    `The embedded PostgreSQL ${what} in ${dataDir}; its last message was: ${lastLine(output) || "(none)"}. ` +
      `Fix what that message names (deleting the folder starts over with an empty database, ` +
      `if it holds nothing you need), ${OWN_DATABASE}.`,
  );
}

function lastLine(output: string): string {
  const lines = output
    .split("\n")
    .map((line) => line.replace(/^\S+ \S+ \S+ \[\d+\] /, "").trim())
    .filter(Boolean);
  const errors = lines.filter((line) => /FATAL|ERROR|PANIC|error|could not|cannot/i.test(line));
  return (errors.at(-1) ?? lines.at(-1) ?? "").slice(0, 300);
}
