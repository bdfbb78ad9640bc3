import type { Metadata } from "next";
import { connection } from "next/server";
import { Toaster } from "sonner";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Integrations", template: "%s · Integrations" },
  description: "API keys and a signed Events Webhook for your account.",
};

export default async function RootLayout({ children }: { children: React.ReactNode }) {
  // Every page is rendered per request, so that Next.js can put this response's CSP nonce (proxy.ts) on its scripts.
  await connection();
  return (
    <html lang="en">
      <body className="min-h-screen font-sans">
        {children}
        <Toaster position="bottom-right" richColors closeButton />
      </body>
    </html>
  );
}
