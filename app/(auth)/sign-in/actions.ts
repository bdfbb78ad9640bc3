"use server";

import { redirect } from "next/navigation";
import { checkCredentials } from "@/lib/auth/credentials";
import { clientIp, startSession } from "@/lib/auth/session";
import { safeCallbackUrl } from "../safe-callback";

export type SignInState = { error?: string; email?: string };

export async function signInAction(_previous: SignInState, form: FormData): Promise<SignInState> {
  const email = String(form.get("email") ?? "");
  const password = String(form.get("password") ?? "");
  if (!email.trim() || !password) return { error: "Enter your email and password.", email };

  const result = await checkCredentials(email, password, await clientIp());
  if (!result.ok) {
    if (result.reason === "throttled") {
      return { error: `Too many failed attempts. Try again in ${result.retryAfterSeconds} seconds.`, email };
    }
    // One message for unknown email and wrong password, so neither can be probed.
    return { error: "The email or password is incorrect.", email };
  }
  await startSession(result.user);
  redirect(safeCallbackUrl(form.get("callbackUrl")));
}
