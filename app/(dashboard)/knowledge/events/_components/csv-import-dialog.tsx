"use client";

import { Download } from "lucide-react";
import { CsvImportDialog as CsvImport } from "@/components/csv/csv-import-dialog";

export function CsvImportDialog() {
  return (
    <CsvImport
      title="Import events from CSV"
      description={
        "For the initial bulk load: no rate limit. Rows are upserts, " +
        "so importing the same file twice changes nothing."
      }
      uploadUrl="/knowledge/events/import"
      formatHint={
        <>
          Columns: title, starts_at (required), ends_at, description, location, url, price, recurring, status,
          exceptions (a series&rsquo; removed occurrences, e.g. &ldquo;cancelled 2026-12-05T09:00:00+01:00&rdquo;;
          separate several with &ldquo;;&rdquo;).{" "}
          <a
            href="/knowledge/events/template"
            download
            className="font-medium whitespace-nowrap text-indigo-600 hover:underline"
          >
            <Download className="mr-0.5 inline size-3" aria-hidden />
            Download template
          </a>
        </>
      }
    />
  );
}
