"use client";

import { Trash2 } from "lucide-react";
import { ConfirmDialog } from "@/components/ui/alert-dialog";
import { Button } from "@/components/ui/button";
import { useAct } from "@/app/(dashboard)/_components/use-act";
import { revokeApiKeyAction } from "../actions";

export function RevokeKeyButton({ keyId, keyName }: { keyId: string; keyName: string }) {
  const { act } = useAct();
  const revoke = () => act(() => revokeApiKeyAction({ keyId }));

  return (
    <ConfirmDialog
      trigger={
        <Button
          variant="ghost"
          size="sm"
          aria-label={`Revoke ${keyName}`}
          title="Revoke"
          className="text-zinc-500 hover:bg-red-50 hover:text-red-600"
        >
          <Trash2 className="size-4" aria-hidden />
        </Button>
      }
      icon={<Trash2 className="size-5" aria-hidden />}
      title={`Revoke “${keyName}”?`}
      description={
        "Every request with this key is refused from now on, on every server. " +
        "Integrations using it stop working until they get a new key. This cannot be undone."
      }
      confirmLabel="Revoke"
      pendingLabel="Revoking…"
      onConfirm={revoke}
    />
  );
}
