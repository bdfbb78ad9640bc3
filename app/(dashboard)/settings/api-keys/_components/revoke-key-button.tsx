"use client";

import { Trash2 } from "lucide-react";
import { IconConfirm } from "@/components/ui/alert-dialog";
import { useAct } from "@/app/(dashboard)/_components/use-act";
import { revokeApiKeyAction } from "../actions";

export function RevokeKeyButton({ keyId, keyName }: { keyId: string; keyName: string }) {
  const { act } = useAct();
  const revoke = () => act(() => revokeApiKeyAction({ keyId }));

  return (
    <IconConfirm
      Icon={Trash2}
      label={`Revoke ${keyName}`}
      hint="Revoke"
      danger
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
