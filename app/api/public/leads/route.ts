import { withApiKey } from "@/lib/api-keys/with-api-key";
import { createLeadRoute, listLeadsRoute } from "@/lib/leads/http";

export const dynamic = "force-dynamic";

export const GET = withApiKey(listLeadsRoute, { scope: "read:leads" });
export const POST = withApiKey(createLeadRoute, { scope: "write:leads" });
