import { withApiKey } from "@/lib/api-keys/with-api-key";
import { listPipelineRoute } from "@/lib/leads/http";

export const dynamic = "force-dynamic";

export const GET = withApiKey(listPipelineRoute, { scope: "read:leads" });
