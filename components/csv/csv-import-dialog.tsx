"use client";

import { FileUp, Upload } from "lucide-react";
import { useRouter } from "next/navigation";
import { startTransition, useActionState, useState } from "react";
import { Button } from "../ui/button";
import { Dialog, DialogBody, DialogContent, DialogFooter, DialogTriggerButton } from "../ui/dialog";
import { inputClasses } from "../ui/field";
import { FormAlert } from "../ui/form-alert";
import type { CsvImportState } from "@/lib/csv-import/upload";
import { CsvPreview, CsvProblems } from "./csv-preview";

const number = new Intl.NumberFormat("en-US");
const IDLE: CsvImportState = { stage: "idle" };
const MAX_BYTES = 5 * 1024 * 1024;

/** Sends the file itself as the body of the import route, which parses it as it streams in. */
async function upload(url: string, intent: "preview" | "import", file: File): Promise<CsvImportState> {
  if (file.size === 0) return { stage: "error", message: "Choose a CSV file to import." };
  if (file.size > MAX_BYTES)
    return { stage: "error", message: "The file is larger than 5 MiB. Split it into smaller files." };
  try {
    const response = await fetch(`${url}?intent=${intent}`, {
      method: "POST",
      headers: { "Content-Type": "text/csv", "X-File-Name": encodeURIComponent(file.name) },
      body: file,
    });
    const state = (await response.json().catch(() => null)) as CsvImportState | null;
    return state?.stage ? state : { stage: "error", message: "The import failed. Try again." };
  } catch {
    return { stage: "error", message: "The upload failed. Check the connection and try again." };
  }
}

export type CsvImportDialogProps = {
  /** e.g. "Import events from CSV" */
  title: string;
  description: React.ReactNode;
  /** The upload route (lib/csv-import/upload-route.ts), e.g. "/knowledge/events/import". */
  uploadUrl: string;
  /** Under the file field: the columns and a template link. */
  formatHint: React.ReactNode;
};

/**
 * Upload → preview with per-row errors → import the valid rows. The chosen File stays in state and is
 * sent again for the import, so the server keeps nothing between the two steps.
 */
export function CsvImportDialog({ title, description, uploadUrl, formatHint }: CsvImportDialogProps) {
  const router = useRouter();
  const [open, setOpen] = useState(false);
  // Each opening starts a fresh flow (fresh file and action state).
  const [attempt, setAttempt] = useState(0);
  const [imported, setImported] = useState(false);

  const change = (next: boolean) => {
    setOpen(next);
    if (next) return;
    if (imported) router.refresh();
    setImported(false);
    setAttempt((value) => value + 1);
  };

  return (
    <Dialog open={open} onOpenChange={change}>
      <DialogTriggerButton variant="secondary" icon={<Upload className="size-4" aria-hidden />}>
        Import CSV
      </DialogTriggerButton>
      <DialogContent title={title} description={description} icon={<FileUp className="size-4" aria-hidden />} size="lg">
        <CsvImportFlow
          key={attempt}
          uploadUrl={uploadUrl}
          formatHint={formatHint}
          onClose={() => change(false)}
          onImported={() => setImported(true)}
        />
      </DialogContent>
    </Dialog>
  );
}

function CsvImportFlow({
  uploadUrl,
  formatHint,
  onClose,
  onImported,
}: {
  uploadUrl: string;
  formatHint: React.ReactNode;
  onClose: () => void;
  onImported: () => void;
}) {
  const [file, setFile] = useState<File | null>(null);
  const [state, dispatch, pending] = useActionState<
    CsvImportState,
    { intent: "preview" | "import" | "reset"; file: File | null }
  >(async (_previous, request) => {
    // Choosing another file clears the previous preview without asking the server.
    if (request.intent === "reset" || !request.file) return IDLE;
    const next = await upload(uploadUrl, request.intent, request.file);
    if (next.stage === "done") onImported();
    return next;
  }, IDLE);

  const send = (intent: "preview" | "import" | "reset", chosen = file) => {
    startTransition(() => dispatch({ intent, file: chosen }));
  };

  return (
    <>
      <DialogBody>
        {state.stage === "done" ? (
          <div role="status" aria-label="Import result" className="space-y-4">
            <div className={`grid gap-3 text-center ${state.unchanged ? "grid-cols-2 sm:grid-cols-4" : "grid-cols-3"}`}>
              {(
                [
                  ["Created", state.created, "text-emerald-700"],
                  ["Updated", state.updated, "text-indigo-700"],
                  // Rows already exactly as the file has them: shown only when there are some.
                  ...(state.unchanged ? ([["Unchanged", state.unchanged, "text-zinc-700"]] as const) : []),
                  ["Failed", state.failed, state.failed ? "text-red-700" : "text-zinc-500"],
                ] as const
              ).map(([label, value, tone]) => (
                <div key={label} className="rounded-lg bg-zinc-50 px-3 py-3 ring-1 ring-zinc-200">
                  <p className={`text-2xl font-semibold tabular-nums ${tone}`}>{number.format(value)}</p>
                  <p className="text-xs text-zinc-500">{label}</p>
                </div>
              ))}
            </div>
            <CsvProblems problems={state.problems} />
          </div>
        ) : (
          <>
            <div className="space-y-1.5">
              <label htmlFor="csv-file" className="block text-sm font-medium text-zinc-800">
                CSV file
              </label>
              <input
                id="csv-file"
                type="file"
                accept=".csv,text/csv"
                className={
                  `${inputClasses} file:mr-3 file:rounded file:border-0 file:bg-zinc-100 ` +
                  `file:px-2.5 file:py-1 file:text-sm file:font-medium`
                }
                onChange={(event) => {
                  const chosen = event.target.files?.[0] ?? null;
                  setFile(chosen);
                  send("reset", chosen);
                }}
              />
              <p className="text-xs text-zinc-500">UTF-8, up to 5 MiB. {formatHint}</p>
            </div>
            <FormAlert>{state.stage === "error" ? state.message : null}</FormAlert>
            {state.stage === "preview" ? <CsvPreview preview={state} /> : null}
          </>
        )}
      </DialogBody>
      <DialogFooter>
        {state.stage === "done" ? (
          <Button onClick={onClose}>Done</Button>
        ) : (
          <>
            <Button variant="secondary" onClick={onClose}>
              Cancel
            </Button>
            {state.stage === "preview" ? (
              <Button onClick={() => send("import")} disabled={pending || state.valid === 0}>
                {pending
                  ? "Importing…"
                  : `Import ${number.format(state.valid)} valid ${state.valid === 1 ? "row" : "rows"}`}
              </Button>
            ) : (
              <Button onClick={() => send("preview")} disabled={!file || pending}>
                {pending ? "Checking…" : "Preview"}
              </Button>
            )}
          </>
        )}
      </DialogFooter>
    </>
  );
}
