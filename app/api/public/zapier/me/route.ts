import { methodNotAllowedResponse } from "@/lib/http/api-error";
import { zapierMe } from "@/lib/public-api/zapier-me";

// Answered per key and never cached; this also spares Next its request proxy for static-rendering checks.
export const dynamic = "force-dynamic";

// The handler lives in lib/ so that the production server's fast path (lib/server/fast-routes.ts) serves the same one.
export const GET = zapierMe;

const notAllowed = () => methodNotAllowedResponse(["GET", "HEAD"]);
export { notAllowed as POST, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
