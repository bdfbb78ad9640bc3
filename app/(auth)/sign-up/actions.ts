"use server";

import { redirect } from "next/navigation";
import { signUp, signUpSchema } from "@/lib/accounts/sign-up";
import { startSession } from "@/lib/auth/session";
import { safeCallbackUrl } from "../safe-callback";

export type SignUpState = {
  fieldErrors?: Partial<Record<"name" | "email" | "password", string>>;
  values?: { name: string; email: string };
};

export async function signUpAction(_previous: SignUpState, form: FormData): Promise<SignUpState> {
  const raw = {
    name: String(form.get("name") ?? ""),
    email: String(form.get("email") ?? ""),
    password: String(form.get("password") ?? ""),
    timezone: String(form.get("timezone") ?? ""),
  };
  const values = { name: raw.name, email: raw.email };
  const parsed = signUpSchema.safeParse(raw);
  if (!parsed.success) {
    const fieldErrors: SignUpState["fieldErrors"] = {};
    for (const issue of parsed.error.issues) {
      const field = issue.path[0] as keyof NonNullable<SignUpState["fieldErrors"]>;
      fieldErrors[field] ??= issue.message;
    }
    return { fieldErrors, values };
  }
  const result = await signUp(parsed.data);
  if (!result.ok) return { fieldErrors: result.fieldErrors, values };
  await startSession(result.user);
  redirect(safeCallbackUrl(form.get("callbackUrl")));
}
