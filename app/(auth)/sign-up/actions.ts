"use server";

import { redirect } from "next/navigation";
import { z } from "zod";
import { signUp, signUpSchema } from "@/lib/sign-up/sign-up";
import { defineAction, fail } from "@/lib/actions/action";
import { clientIp, startSession } from "@/lib/auth/session";
import { takeSignUpAttempt } from "@/lib/auth/sign-up-throttle";
import { safeCallbackUrl } from "../safe-callback";
import { SIGN_UP_REFUSED } from "./messages";

/**
 * Succeeds by redirecting. A taken email and a throttled attempt get the same words, so the answer does
 * not tell whether an email has an account; sign-up hashes the password in both cases, so neither does
 * the time taken.
 */
const signUpInput = signUpSchema.extend({ callbackUrl: z.string().optional() });

export const signUpAction = defineAction({ role: "public", input: signUpInput }, async (input) => {
  if (!(await takeSignUpAttempt(await clientIp()))) return fail(SIGN_UP_REFUSED);
  const result = await signUp(input);
  if (!result.ok) return fail(SIGN_UP_REFUSED);
  await startSession(result.user);
  redirect(safeCallbackUrl(input.callbackUrl));
});
