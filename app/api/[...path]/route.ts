import { apiNotFoundResponse } from "@/lib/platform/http/api-error";

// Any /api/ path no route claims: the API's JSON error body, never the HTML 404 page.
export const dynamic = "force-dynamic";

const notFound = () => apiNotFoundResponse();
export {
  notFound as GET,
  notFound as HEAD,
  notFound as POST,
  notFound as PUT,
  notFound as PATCH,
  notFound as DELETE,
  notFound as OPTIONS,
};
