import { LEADS_CSV_TEMPLATE } from "@/lib/leads/csv-import";

export function GET() {
  return new Response("\uFEFF" + LEADS_CSV_TEMPLATE, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": 'attachment; filename="leads-template.csv"',
      "Cache-Control": "no-store",
    },
  });
}
