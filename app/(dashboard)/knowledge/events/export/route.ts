import { signInRedirect, withSession } from "@/lib/auth/with-session";
import { exportEventsCsv } from "@/lib/events/csv-export";
import { listOptionsFrom } from "../filters";

export const dynamic = "force-dynamic";

/** The events matching the list's filters, as CSV. Members may export: they may read. */
export const GET = withSession(
  { role: "member", signedOut: signInRedirect("/knowledge/events") },
  async (request, context) => {
    const params = Object.fromEntries(new URL(request.url).searchParams);
    const stamp = new Date().toISOString().slice(0, 10);
    return new Response(exportEventsCsv(context.account.id, listOptionsFrom(params)), {
      headers: {
        "Content-Type": "text/csv; charset=utf-8",
        "Content-Disposition": `attachment; filename="events-${stamp}.csv"`,
        "Cache-Control": "no-store",
      },
    });
  },
);
