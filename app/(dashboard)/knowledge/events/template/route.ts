import { CSV_TEMPLATE } from "@/lib/events/csv-format";

export function GET() {
  return new Response("\uFEFF" + CSV_TEMPLATE, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": 'attachment; filename="events-template.csv"',
      "Cache-Control": "no-store",
    },
  });
}
