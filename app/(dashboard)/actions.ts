"use server";

import { redirect } from "next/navigation";
import { endSession } from "@/lib/auth/session";

/**
 * Not a defineAction: signing out must work with an ended or partial session too, and it only ever
 * narrows access (it bumps the session version of the cookie's user, then deletes the cookie).
 */
export async function signOutAction(): Promise<void> {
  await endSession();
  redirect("/sign-in");
}
