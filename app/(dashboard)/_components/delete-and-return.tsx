"use client";

import { Trash2 } from "lucide-react";
import { useRouter } from "next/navigation";
import { toast } from "sonner";
import { ConfirmDialog } from "@/components/ui/alert-dialog";
import { Button } from "@/components/ui/button";
import type { ActionResult } from "@/lib/actions/result";

/**
 * A detail page's "Delete": confirmed first; once deleted, the page is gone, so the user is taken back
 * to its list (replacing the history entry) with the action's message as a toast.
 */
export function DeleteAndReturn({
  title,
  description,
  remove,
  returnTo,
}: {
  title: string;
  description: string;
  remove: () => Promise<ActionResult<{ message: string }>>;
  returnTo: string;
}) {
  const router = useRouter();
  const confirm = async () => {
    const result = await remove();
    if (!result.ok) {
      toast.error(result.error);
      return;
    }
    toast.success(result.data.message);
    router.replace(returnTo);
  };

  return (
    <ConfirmDialog
      trigger={
        <Button variant="secondary" className="text-red-600 hover:bg-red-50">
          <Trash2 className="size-4" aria-hidden />
          Delete
        </Button>
      }
      icon={<Trash2 className="size-5" aria-hidden />}
      title={title}
      description={description}
      confirmLabel="Delete"
      pendingLabel="Deleting…"
      onConfirm={confirm}
    />
  );
}
