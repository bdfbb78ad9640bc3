import { GET as zapierMe } from "@/app/api/public/zapier/me/route";
import { POST as eventsWebhook } from "@/app/api/v1/events/webhook/[sourceId]/route";

/*
 * The two machine-facing hot paths (the public API and the events webhook) answered straight from
 * node:http by the production server (lib/cli/serve.mjs), skipping Next's page/route pipeline, which
 * costs more CPU per request than the work itself. The handlers are the very route exports Next serves
 * (and serves alone under `next dev`), so there is one implementation of each route.
 */

export type FastRoute = (request: Request) => Promise<Response>;

const WEBHOOK_PREFIX = "/api/v1/events/webhook/";

/** Malformed percent-encoding is passed through as is; the handler answers 404 to ids it cannot know. */
function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

export function matchFastRoute(method: string, pathname: string): FastRoute | null {
  if (pathname === "/api/public/zapier/me" && (method === "GET" || method === "HEAD")) {
    return (request) => zapierMe(request, { params: Promise.resolve({}) });
  }
  if (method === "POST" && pathname.startsWith(WEBHOOK_PREFIX)) {
    const sourceId = pathname.slice(WEBHOOK_PREFIX.length);
    if (!sourceId || sourceId.includes("/")) return null;
    return (request) => eventsWebhook(request, { params: Promise.resolve({ sourceId: decodeSegment(sourceId) }) });
  }
  return null;
}
