import { contactRoute } from "@/lib/conversations/visitor-http";

// The chat page's endpoints: anonymous, throttled, token-checked (lib/conversations/visitor-http.ts).
export const dynamic = "force-dynamic";

export const POST = contactRoute;
