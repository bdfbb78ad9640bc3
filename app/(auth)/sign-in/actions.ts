"use server";

import { redirect } from "next/navigation";
import { z } from "zod";
import { defineAction, fail, formTexts } from "@/lib/actions/action";
import { checkCredentials } from "@/lib/auth/credentials";
import { clientIp, startSession } from "@/lib/auth/session";
import { safeCallbackUrl } from "../safe-callback";

const signInInput = z
  .object({ ...formTexts(["email", "password"]), callbackUrl: z.string().optional() })
  .refine((input) => input.email.trim() !== "" && input.password !== "", { message: "Enter your email and password." });

/** Succeeds by redirecting; every answer it returns is a refusal. */
export const signInAction = defineAction({ role: "public", input: signInInput }, async (input) => {
  const result = await checkCredentials(input.email, input.password, await clientIp());
  // checkCredentials words both refusals: throttled, or one message for any wrong email or password.
  if (!result.ok) return fail(result.message);
  await startSession(result.user);
  redirect(safeCallbackUrl(input.callbackUrl));
});
