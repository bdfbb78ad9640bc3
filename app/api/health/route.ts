import { db } from "@/lib/platform/db/client";

export const dynamic = "force-dynamic";

export async function GET() {
  try {
    await db.pool.query("SELECT 1");
    return Response.json({ ok: true, db: true }, { headers: { "Cache-Control": "no-store" } });
  } catch {
    return Response.json(
      { ok: false, db: false },
      { status: 503, headers: { "Cache-Control": "no-store", "Retry-After": "5" } },
    );
  }
}
