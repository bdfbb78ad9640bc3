import type { Metadata } from "next";
import { openApiDocument } from "@/lib/openapi/document";
import { OPENAPI_PATH } from "@/lib/openapi/reference";
import { ApiReference } from "./api-reference";

export const metadata: Metadata = {
  title: "API reference",
  description: "The public API and the Events Webhook, with every status and error code.",
};

/*
 * Public (no session): the reference an integrator reads before having a key. The document is handed to
 * the bundled renderer inline, so the page needs no request of its own and nothing from another host.
 */
export default function ApiReferencePage() {
  return (
    <main>
      <p className="border-b border-zinc-200 bg-zinc-50 px-4 py-2 text-sm text-zinc-600">
        The OpenAPI 3.1 document behind this page:{" "}
        <a className="font-medium text-zinc-900 underline" href={OPENAPI_PATH}>
          {OPENAPI_PATH}
        </a>
      </p>
      <ApiReference document={openApiDocument()} />
    </main>
  );
}
