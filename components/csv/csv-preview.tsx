import { AlertCircle, CheckCircle2 } from "lucide-react";
import type { CsvRowProblem } from "@/lib/platform/csv/parse";
import type { CsvImportState } from "@/lib/csv-import/upload";

const number = new Intl.NumberFormat("en-US");

export function CsvProblems({ problems }: { problems: CsvRowProblem[] }) {
  if (problems.length === 0) return null;
  return (
    <section aria-label="Row errors">
      <h3 className="mb-2 text-sm font-semibold text-zinc-900">Rows with errors</h3>
      <ul className="max-h-48 divide-y divide-zinc-100 overflow-y-auto rounded-lg text-sm ring-1 ring-zinc-200">
        {problems.map((problem, index) => (
          <li key={`${problem.line}-${problem.field ?? ""}-${index}`} className="flex gap-3 px-3 py-2">
            <span className="w-16 shrink-0 font-mono text-xs text-zinc-500">line {problem.line}</span>
            <span className="text-zinc-800">
              {problem.field ? <code className="mr-1 font-mono text-xs text-red-700">{problem.field}</code> : null}
              {problem.message}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

export function CsvPreview({ preview }: { preview: Extract<CsvImportState, { stage: "preview" }> }) {
  const invalid = preview.total - preview.valid;
  const rows = `${number.format(preview.total)} ${preview.total === 1 ? "row" : "rows"}`;
  const counts = `${rows}, ${number.format(preview.valid)} valid`;
  return (
    <div className="space-y-4">
      <p role="status" className="flex items-center gap-2 text-sm text-zinc-700">
        {invalid ? (
          <AlertCircle className="size-4 text-amber-600" aria-hidden />
        ) : (
          <CheckCircle2 className="size-4 text-emerald-600" aria-hidden />
        )}
        <span>
          <strong>{preview.fileName}</strong>: {counts}
          {invalid ? `, ${number.format(invalid)} with errors (they will be skipped)` : ""}.
        </span>
      </p>
      <div className="relative overflow-x-auto rounded-lg ring-1 ring-zinc-200">
        <table aria-label="Preview" className="min-w-full text-left text-sm">
          <thead className="bg-zinc-50 text-xs text-zinc-500">
            <tr>
              <th className="px-3 py-2 font-medium">Line</th>
              {preview.columns.map((column) => (
                <th key={column} className="px-3 py-2 font-medium">
                  {column}
                </th>
              ))}
              <th className="px-3 py-2 font-medium">Check</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-zinc-100">
            {preview.rows.map((row) => (
              <tr key={row.line} className={row.problems.length ? "bg-red-50/50" : undefined}>
                <td className="px-3 py-2 font-mono text-xs text-zinc-500">{row.line}</td>
                {row.cells.map((cell, index) => (
                  <td key={index} className="max-w-48 truncate px-3 py-2">
                    {cell}
                  </td>
                ))}
                <td className="px-3 py-2 text-xs">
                  {row.problems.length ? (
                    <span className="text-red-700">{row.problems.join("; ")}</span>
                  ) : (
                    <span className="text-emerald-700">OK</span>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <CsvProblems problems={preview.problems} />
    </div>
  );
}
