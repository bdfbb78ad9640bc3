import { withApiKey } from "@/lib/api-keys/with-api-key";
import { changeLeadStageRoute } from "@/lib/leads/http";

export const dynamic = "force-dynamic";

export const POST = withApiKey<{ id: string }>(changeLeadStageRoute, { scope: "write:leads" });
