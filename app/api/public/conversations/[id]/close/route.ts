import { conversationCloseRoutes } from "@/lib/public-api/routes";

// One implementation per route: the production server's fast path serves the same table (lib/public-api/routes.ts).
export const dynamic = "force-dynamic";

export const { POST } = conversationCloseRoutes;
