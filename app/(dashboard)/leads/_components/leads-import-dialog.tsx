"use client";

import { Download } from "lucide-react";
import { CsvImportDialog } from "@/components/csv/csv-import-dialog";

export function LeadsImportDialog() {
  return (
    <CsvImportDialog
      title="Import leads from CSV"
      description={
        "A row whose email matches a lead updates that lead; " +
        "other rows create leads. Importing the same file twice changes nothing."
      }
      uploadUrl="/leads/import"
      formatHint={
        <>
          Columns: name, email, phone (at least one of them), company, stage (key or name; the first stage when empty),
          source, notes, metadata (a JSON object). An export imports back as it is.{" "}
          <a href="/leads/template" download className="font-medium whitespace-nowrap text-indigo-600 hover:underline">
            <Download className="mr-0.5 inline size-3" aria-hidden />
            Download template
          </a>
        </>
      }
    />
  );
}
