import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { getSessionContext } from "@/lib/auth/session";
import { DEFAULT_AFTER_SIGN_IN } from "../safe-callback";
import { SignUpForm } from "./sign-up-form";

export const metadata: Metadata = { title: "Create account" };

export default async function SignUpPage({ searchParams }: { searchParams: Promise<{ callbackUrl?: string }> }) {
  const { callbackUrl } = await searchParams;
  if (await getSessionContext()) redirect(DEFAULT_AFTER_SIGN_IN);
  return (
    <>
      <h1 className="text-xl font-semibold tracking-tight text-zinc-900">Create your account</h1>
      <p className="mt-1 mb-6 text-sm text-zinc-600">
        Connect automation tools and push events from your CRM in minutes.
      </p>
      <SignUpForm callbackUrl={callbackUrl} />
    </>
  );
}
