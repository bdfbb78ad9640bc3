"use client";

import { useRouter } from "next/navigation";
import { useTransition } from "react";
import { toast } from "sonner";
import type { ActionResult } from "@/lib/actions/result";

/*
 * The dashboard's "act → toast → refresh" step for buttons that call a server action: the action's
 * message (or its error) becomes a toast and the page re-renders with the server's new state. `pending`
 * covers the whole step; the returned promise settles with it, so a confirm dialog can wait for it.
 */
export function useAct() {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const act = <T extends { message: string }>(run: () => Promise<ActionResult<T>>, after?: (result: ActionResult<T>) => void) =>
    new Promise<ActionResult<T>>((resolve) =>
      startTransition(async () => {
        const result = await run();
        if (result.ok) toast.success(result.data.message);
        else toast.error(result.error);
        after?.(result);
        router.refresh();
        resolve(result);
      }),
    );
  return { act, pending };
}
