import { handleWebhookRequest } from "@/lib/events-webhook/handler";

// Thin on purpose: every check, status and log entry lives in lib/events-webhook (design.md section 4).
export async function POST(request: Request, context: { params: Promise<{ sourceId: string }> }): Promise<Response> {
  const { sourceId } = await context.params;
  return handleWebhookRequest(request, sourceId);
}
