import { signInRedirect, withSession } from "@/lib/auth/with-session";
import { exportLeadsCsv } from "@/lib/leads/csv-export";
import { readLeadFilters } from "@/lib/leads/filters";
import { invalidRequestResponse } from "@/lib/api/validation";
import { leadParams } from "../filters";

export const dynamic = "force-dynamic";

/** The leads matching the table's search and stage filter, as CSV. Members may export: they may read. */
export const GET = withSession({ role: "member", signedOut: signInRedirect("/leads") }, async (request, context) => {
  const { filters, problems } = readLeadFilters(leadParams(Object.fromEntries(new URL(request.url).searchParams)));
  // A download cannot show a notice: a refused filter is the API's 400 rather than a file of every lead.
  if (problems.length) return invalidRequestResponse(problems, "The search or stage filter is not valid; see details.");
  const stamp = new Date().toISOString().slice(0, 10);
  return new Response(exportLeadsCsv(context.account.id, filters), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="leads-${stamp}.csv"`,
      "Cache-Control": "no-store",
    },
  });
});
