import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { getSessionContext } from "@/lib/auth/session";
import { safeCallbackUrl } from "../safe-callback";
import { SignInForm } from "./sign-in-form";

export const metadata: Metadata = { title: "Sign in" };

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ callbackUrl?: string }> }) {
  const { callbackUrl } = await searchParams;
  if (await getSessionContext()) redirect(safeCallbackUrl(callbackUrl));
  return (
    <>
      <h1 className="text-xl font-semibold tracking-tight text-zinc-900">Sign in</h1>
      <p className="mt-1 mb-6 text-sm text-zinc-600">Manage API keys and the events webhook of your account.</p>
      <SignInForm callbackUrl={callbackUrl} />
    </>
  );
}
