import { methodNotAllowedResponse } from "@/lib/platform/http/api-error";
import { meRoutes } from "@/lib/public-api/routes";

// Answered per key and never cached; this also spares Next its request proxy for static-rendering checks.
export const dynamic = "force-dynamic";

// One implementation per route: the production server's fast path serves the same table (lib/public-api/routes.ts).
export const { GET } = meRoutes;

const notAllowed = () => methodNotAllowedResponse(["GET", "HEAD"]);
export { notAllowed as POST, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
