import { handleCalendarFeedRequest } from "@/lib/events/calendar-feed-http";
import { methodNotAllowedResponse } from "@/lib/platform/http/api-error";

// Thin on purpose: the lookup, the ETag and the feed live in lib/events (docs/calendar-feeds.md).
export const dynamic = "force-dynamic";

export async function GET(request: Request, context: { params: Promise<{ token: string }> }): Promise<Response> {
  const { token } = await context.params;
  return handleCalendarFeedRequest(request, token);
}

export { GET as HEAD };

const notAllowed = () => methodNotAllowedResponse(["GET", "HEAD"]);
export { notAllowed as POST, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
