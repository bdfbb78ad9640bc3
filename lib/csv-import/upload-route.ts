import "server-only";
import type { SessionContext } from "@/lib/auth/session";
import { withSession } from "@/lib/auth/with-session";
import { MAX_CSV_BYTES } from "@/lib/platform/csv/parse";
import { handleCsvUpload, TOO_LARGE_MESSAGE, type CsvImporter, type CsvImportState } from "./upload";

/*
 * An import dialog's upload route: the CSV file itself is the request body (not multipart), read as a
 * stream with its own 5 MiB cap, so server actions keep Next's default 1 MB body limit.
 * ?intent=preview validates only; ?intent=import writes the valid rows. The file name travels in
 * X-File-Name (URI-encoded). The answer is the dialog's next state, as JSON.
 */

const answer = (status: number, state: CsvImportState) =>
  Response.json(state, { status, headers: { "Cache-Control": "no-store" } });

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

/** The POST handler of an import route for one importer (owners and admins only). */
export function csvUploadRoute<C extends string, V>(
  importer: CsvImporter<C, V>,
): (request: Request) => Promise<Response> {
  const guarded = withSession(
    {
      role: "manager",
      signedOut: () => answer(401, { stage: "error", message: "Your session has ended. Sign in again." }),
      forbidden: () => answer(403, { stage: "error", message: "Only owners and admins can do this." }),
    },
    (request, context) => receive(request, context, importer),
  );
  // The cross-site check comes first: such a request is refused whoever's cookie it carries.
  return (request) =>
    crossSite(request)
      ? Promise.resolve(
          answer(403, { stage: "error", message: "Uploads are accepted from this app's own pages only." }),
        )
      : guarded(request);
}

async function receive<C extends string, V>(
  request: Request,
  context: SessionContext,
  importer: CsvImporter<C, V>,
): Promise<Response> {
  const declared = Number(request.headers.get("content-length") ?? NaN);
  if (declared > MAX_CSV_BYTES) return answer(413, { stage: "error", message: TOO_LARGE_MESSAGE });
  if (!request.body || declared === 0) return answer(400, { stage: "error", message: "Choose a CSV file to import." });

  const intent = new URL(request.url).searchParams.get("intent") === "import" ? "import" : "preview";
  const upload = {
    accountId: context.account.id,
    actor: context.user,
    intent,
    fileName: fileName(request),
    body: request.body,
  } as const;
  const result = await handleCsvUpload(upload, importer);
  return answer(result.status, result.state);
}
