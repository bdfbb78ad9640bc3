import { getSessionContext } from "@/lib/auth/session";
import { exportEventsCsv } from "@/lib/events/csv-export";
import { listOptionsFrom } from "../filters";

export const dynamic = "force-dynamic";

export async function GET(request: Request) {
  const context = await getSessionContext();
  if (!context) return Response.redirect(new URL("/sign-in?callbackUrl=%2Fknowledge%2Fevents", request.url), 303);
  const params = Object.fromEntries(new URL(request.url).searchParams);
  const stamp = new Date().toISOString().slice(0, 10);
  return new Response(exportEventsCsv(context.account.id, listOptionsFrom(params)), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="events-${stamp}.csv"`,
      "Cache-Control": "no-store",
    },
  });
}
