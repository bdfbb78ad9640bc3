import "server-only";
import { z } from "zod";
import { normaliseEmail } from "@/lib/auth/credentials";
import { hashPassword } from "@/lib/auth/password";
import { db } from "@/lib/db/client";
import { Prisma } from "@/lib/db/generated/client";
import { onAccountCreated } from "./account-hooks";

export const signUpSchema = z.object({
  name: z.string().trim().min(1, "Enter your name.").max(100, "Use at most 100 characters."),
  email: z.string().trim().max(254, "Use at most 254 characters.").pipe(z.email("Enter a valid email address.")),
  password: z
    .string()
    .min(10, "Use at least 10 characters.")
    .max(200, "Use at most 200 characters."),
});

export type SignUpInput = z.infer<typeof signUpSchema>;
export type SignUpResult =
  | { ok: true; user: { id: string; name: string; email: string }; accountId: string }
  | { ok: false; fieldErrors: Partial<Record<keyof SignUpInput, string>> };

/** Creates the user, an account named after them and their owner membership, in one transaction. */
export async function signUp(input: SignUpInput): Promise<SignUpResult> {
  const email = normaliseEmail(input.email);
  const passwordHash = await hashPassword(input.password);
  try {
    return await db.prisma.$transaction(async (tx) => {
      const user = await tx.user.create({ data: { email, name: input.name, passwordHash } });
      const account = await tx.account.create({ data: { name: input.name } });
      await tx.membership.create({ data: { userId: user.id, accountId: account.id, role: "owner" } });
      await onAccountCreated(tx, account.id);
      return { ok: true as const, user: { id: user.id, name: user.name, email: user.email }, accountId: account.id };
    });
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") {
      return { ok: false, fieldErrors: { email: "An account with this email already exists. Sign in instead." } };
    }
    throw error;
  }
}
