import "server-only";
import { isDatabaseUnavailable } from "@/lib/platform/db/client";
import { apiNotFoundResponse, internalErrorResponse, unavailableResponse } from "@/lib/platform/http/api-error";
import { appBaseUrl } from "@/lib/platform/http/app-url";
import { calendarFeedChunks, etagMatches, findPublishedFeed } from "./calendar-feed";
import { hashFeedToken, tokenOfSegment } from "./calendar-feed-token";
import { errorFields, logger } from "@/lib/platform/observability/log";

/*
 * GET /api/v1/events/calendar/{token}.ics (docs/calendar-feeds.md). A wrong or rotated-away token is the
 * same JSON 404 as any unknown API path, after the same single lookup by hash: nothing tells whether an
 * account exists. A known token answers the ETag before anything is built, and 304 when it matches.
 */

// Calendar apps poll; each poll revalidates (no-cache) and a match costs one statement. Private: the URL is a secret.
const CACHE_CONTROL = "private, no-cache";

function feedHeaders(etag: string): Headers {
  return new Headers({
    "Content-Type": "text/calendar; charset=utf-8",
    "Content-Disposition": 'inline; filename="events.ics"',
    "Cache-Control": CACHE_CONTROL,
    ETag: etag,
    "X-Robots-Tag": "noindex",
  });
}

export async function handleCalendarFeedRequest(request: Request, segment: string): Promise<Response> {
  try {
    const baseUrl = appBaseUrl();
    const feed = await findPublishedFeed(hashFeedToken(tokenOfSegment(segment)), baseUrl);
    if (!feed) return apiNotFoundResponse();
    const headers = feedHeaders(feed.etag);
    if (etagMatches(request.headers.get("If-None-Match"), feed.etag))
      return new Response(null, { status: 304, headers });
    if (request.method === "HEAD") return new Response(null, { status: 200, headers });
    const chunks = calendarFeedChunks(feed, baseUrl);
    // The head and the first page are read before answering, so a database outage there is still a 503.
    const first = [await chunks.next(), await chunks.next()];
    return new Response(streamOf(first, chunks), { status: 200, headers });
  } catch (error) {
    if (isDatabaseUnavailable(error)) return unavailableResponse();
    logError(error);
    return internalErrorResponse();
  }
}

function logError(error: unknown): void {
  logger().error(errorFields(error), "calendar feed: unexpected error");
}

/** The chunks as a byte stream, pulled one page at a time; a failure later breaks the stream, never the text. */
function streamOf(first: IteratorResult<string>[], rest: AsyncGenerator<string>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const ready = first.filter((result) => !result.done).map((result) => result.value as string);
  const finished = first.some((result) => result.done);
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = ready.shift();
      if (next !== undefined) return controller.enqueue(encoder.encode(next));
      if (finished) return controller.close();
      try {
        const result = await rest.next();
        if (result.done) controller.close();
        else controller.enqueue(encoder.encode(result.value));
      } catch (error) {
        logError(error);
        // Aborting the body makes the calendar app keep its last good copy instead of a truncated one.
        controller.error(error);
      }
    },
    async cancel() {
      await rest.return(undefined);
    },
  });
}
