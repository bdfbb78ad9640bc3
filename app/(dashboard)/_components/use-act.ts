"use client";

import { useRouter } from "next/navigation";
import { useTransition } from "react";
import { toast } from "sonner";
import type { ActionResult } from "@/lib/actions/result";

/*
 * The dashboard's "act → toast → refresh" step for buttons that call a server action: the action's
 * message (or its error) becomes a toast and the page re-renders with the server's new state. `pending`
 * covers the whole step; the returned promise settles with it, so a confirm dialog can wait for it.
 * With `unreachable`, an action that could not be called (no connection) toasts that sentence, skips
 * the refresh and settles with null; without it the error propagates as before.
 */

type ActOptions<T> = { after?: (result: ActionResult<T>) => void; unreachable?: string };
export function useAct() {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const act = <T extends { message: string }>(run: () => Promise<ActionResult<T>>, options: ActOptions<T> = {}) =>
    new Promise<ActionResult<T> | null>((resolve) =>
      startTransition(async () => {
        const result = options.unreachable === undefined ? await run() : await run().catch(() => null);
        if (!result) {
          toast.error(options.unreachable);
          resolve(null);
          return;
        }
        if (result.ok) toast.success(result.data.message);
        else toast.error(result.error);
        options.after?.(result);
        router.refresh();
        resolve(result);
      }),
    );
  return { act, pending };
}
