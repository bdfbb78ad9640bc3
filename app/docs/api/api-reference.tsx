"use client";

import dynamic from "next/dynamic";
import "@scalar/api-reference-react/style.css";

/*
 * Scalar's reference, bundled with the app (no CDN; the app must work offline). Everything that would
 * reach another host is off: its default fonts (fonts.scalar.com), the AI agent (on by default on
 * localhost), the "open in API client" and "test request" buttons, the download menu and the developer
 * toolbar. Scalar mounts a Vue app in the browser, so it is rendered on the client only.
 */
const ApiReferenceReact = dynamic(
  () => import("@scalar/api-reference-react").then((scalar) => scalar.ApiReferenceReact),
  {
    ssr: false,
    loading: () => <p className="p-6 text-sm text-zinc-500">Loading the API reference…</p>,
  },
);

export function ApiReference({ document }: { document: object }) {
  return (
    <ApiReferenceReact
      configuration={{
        content: document,
        withDefaultFonts: false,
        hideClientButton: true,
        hideTestRequestButton: true,
        documentDownloadType: "none",
        showDeveloperTools: "never",
        telemetry: false,
        agent: { disabled: true },
        hideDarkModeToggle: true,
        forceDarkModeState: "light",
        defaultHttpClient: { targetKey: "shell", clientKey: "curl" },
        orderSchemaPropertiesBy: "preserve",
        orderRequiredPropertiesFirst: false,
      }}
    />
  );
}
