import { canManage, getSessionContext } from "@/lib/auth/session";
import { MAX_CSV_BYTES } from "@/lib/events/csv-format";
import { handleCsvUpload, TOO_LARGE_MESSAGE, type CsvImportState } from "@/lib/events/csv-upload";

/*
 * The import dialog's upload: the CSV file itself is the request body (not multipart), read as a
 * stream with its own 5 MiB cap, so server actions keep Next's default 1 MB body limit.
 * ?intent=preview validates only; ?intent=import writes the valid rows. The file name travels in
 * X-File-Name (URI-encoded). The answer is the dialog's next state, as JSON.
 */

export const dynamic = "force-dynamic";

const answer = (status: number, state: CsvImportState) => Response.json(state, { status, headers: { "Cache-Control": "no-store" } });

function fileName(request: Request): string {
  try {
    return decodeURIComponent(request.headers.get("x-file-name") ?? "");
  } catch {
    return "";
  }
}

/**
 * A cross-site page cannot post here with the session: the cookie is SameSite=Lax, and this refuses
 * what the browser marks as coming from another site, as Next does for server actions (Origin against
 * the forwarded or direct host).
 */
function crossSite(request: Request): boolean {
  if (request.headers.get("sec-fetch-site") === "cross-site") return true;
  const origin = request.headers.get("origin");
  if (origin === null) return false;
  const host = request.headers.get("x-forwarded-host")?.split(",")[0]?.trim() || request.headers.get("host");
  try {
    return new URL(origin).host !== host;
  } catch {
    return true;
  }
}

export async function POST(request: Request) {
  if (crossSite(request)) return answer(403, { stage: "error", message: "Uploads are accepted from this app's own pages only." });
  const context = await getSessionContext();
  if (!context) return answer(401, { stage: "error", message: "Your session has ended. Sign in again." });
  if (!canManage(context)) return answer(403, { stage: "error", message: "Only owners and admins can do this." });

  const declared = Number(request.headers.get("content-length") ?? NaN);
  if (declared > MAX_CSV_BYTES) return answer(413, { stage: "error", message: TOO_LARGE_MESSAGE });
  if (!request.body || declared === 0) return answer(400, { stage: "error", message: "Choose a CSV file to import." });

  const intent = new URL(request.url).searchParams.get("intent") === "import" ? "import" : "preview";
  const result = await handleCsvUpload({
    accountId: context.account.id,
    actor: context.user,
    intent,
    fileName: fileName(request),
    body: request.body,
  });
  return answer(result.status, result.state);
}
