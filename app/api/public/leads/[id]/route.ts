import { withApiKey } from "@/lib/api-keys/with-api-key";
import { getLeadRoute, updateLeadRoute } from "@/lib/leads/http";

export const dynamic = "force-dynamic";

export const GET = withApiKey<{ id: string }>(getLeadRoute, { scope: "read:leads" });
export const PATCH = withApiKey<{ id: string }>(updateLeadRoute, { scope: "write:leads" });
