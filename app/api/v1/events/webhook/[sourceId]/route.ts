import { handleWebhookRequest } from "@/lib/events-webhook/handler";
import { methodNotAllowedResponse } from "@/lib/platform/http/api-error";

// Thin on purpose: every check, status and log entry lives in lib/events-webhook (docs/webhook.md), which
// the production server's fast path (lib/server/fast-routes.ts) calls directly as well.
export async function POST(request: Request, context: { params: Promise<{ sourceId: string }> }): Promise<Response> {
  const { sourceId } = await context.params;
  return handleWebhookRequest(request, sourceId);
}

const notAllowed = () => methodNotAllowedResponse(["POST"]);
export { notAllowed as GET, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
