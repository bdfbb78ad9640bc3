"use client";

import { AlertTriangle, Send } from "lucide-react";
import { useState, useTransition } from "react";
import { toast } from "sonner";
import {
  RotatedSecretNotice,
  SigningSecretField,
  useSecretRotation,
} from "@/app/(dashboard)/_components/signing-secret-field";
import { RotateConfirm } from "@/components/ui/alert-dialog";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { inputClasses } from "@/components/ui/field";
import { revealSecretAction, rotateSecretAction, sendTestEventAction, setSourceActiveAction } from "../actions";
import { Switch } from "./switch";

export type SourceCardProps = {
  source: {
    id: string;
    publicId: string;
    name: string;
    active: boolean;
    endpointUrl: string;
    rotatedAt: string | null;
  };
  canManage: boolean;
};

type TestResult = { status: number; summary: string };

function summarise(status: number, body: unknown): string {
  const error = (body as { error?: { code?: string; message?: string } } | null)?.error;
  if (error?.code) return `${error.code}: ${error.message ?? ""}`;
  const event = (body as { event?: { created?: boolean } } | null)?.event;
  if (status === 200) return event?.created ? "Event created" : "Event updated";
  return `HTTP ${status}`;
}

export function SourceCard({ source, canManage }: SourceCardProps) {
  const [active, setActive] = useState(source.active);
  const [testResult, setTestResult] = useState<TestResult | null>(null);
  const [switching, startSwitch] = useTransition();
  const [testing, startTest] = useTransition();

  const toggle = (next: boolean) =>
    startSwitch(async () => {
      setActive(next);
      const result = await setSourceActiveAction({ sourceId: source.id, active: next });
      if (!result.ok) {
        setActive(!next);
        toast.error(result.error);
        return;
      }
      toast.success(
        next ? "Source activated: requests are accepted again." : "Source deactivated: requests now get 403.",
      );
    });

  const { secret, setSecret, justRotated, rotate, acknowledge } = useSecretRotation(
    () => rotateSecretAction({ sourceId: source.id }),
    "Secret rotated. Copy the new secret into your sending system now.",
  );

  const sendTest = () =>
    startTest(async () => {
      const result = await sendTestEventAction({ sourceId: source.id });
      if (!result.ok) {
        toast.error(result.error);
        return;
      }
      const { status, body } = result.data;
      const outcome = { status, summary: summarise(status, body) };
      setTestResult(outcome);
      if (status === 200) toast.success(`Test event delivered: ${status} OK`);
      else toast.error(`Test event answered ${status}: ${outcome.summary}`);
    });

  return (
    <section aria-labelledby={`source-${source.id}`} className="rounded-xl bg-white shadow-sm ring-1 ring-zinc-200">
      <div
        className={
          "flex flex-col gap-3 border-b border-zinc-200 px-6 py-4 " + "sm:flex-row sm:items-center sm:justify-between"
        }
      >
        <div className="flex items-center gap-3">
          <h2 id={`source-${source.id}`} className="text-base font-semibold text-zinc-900">
            {source.name}
          </h2>
          <Badge tone={active ? "green" : "neutral"} dot>
            {active ? "Receiving" : "Inactive"}
          </Badge>
        </div>
        <Switch label="Active" checked={active} disabled={!canManage || switching} onCheckedChange={toggle} />
      </div>

      <div className="space-y-5 px-6 py-5">
        {!active ? (
          <p
            role="status"
            className={
              "flex items-start gap-2 rounded-lg bg-amber-50 px-3 py-2.5 " +
              "text-sm text-amber-900 ring-1 ring-amber-200"
            }
          >
            <AlertTriangle className="mt-0.5 size-4 shrink-0" aria-hidden />
            This source is inactive: every request to its endpoint is answered with 403{" "}
            <code className="font-mono text-xs">source_inactive</code> and nothing is stored. Switch it on to receive
            events again.
          </p>
        ) : null}

        <div className="space-y-1.5">
          <label htmlFor={`endpoint-${source.id}`} className="block text-sm font-medium text-zinc-800">
            Endpoint URL
          </label>
          <div className="flex flex-col gap-2 sm:flex-row">
            <input
              id={`endpoint-${source.id}`}
              readOnly
              value={source.endpointUrl}
              className={`${inputClasses} min-w-0 flex-1 font-mono`}
              onFocus={(event) => event.currentTarget.select()}
            />
            <CopyButton value={source.endpointUrl} toastMessage="Endpoint URL copied" aria-label="Copy endpoint URL" />
          </div>
        </div>

        <SigningSecretField
          key={secret ?? "masked"}
          id={`secret-${source.id}`}
          secret={secret}
          onSecret={setSecret}
          fetchSecret={() => revealSecretAction({ sourceId: source.id })}
          canReveal={canManage}
          hint="Keep it on the server of the system that sends events; never put it in a browser or a mobile app."
        />

        {justRotated ? (
          <RotatedSecretNotice onAcknowledge={acknowledge}>
            This is the new signing secret. The old one no longer works: update your sending system now.
          </RotatedSecretNotice>
        ) : null}

        {canManage ? (
          <div className="flex flex-wrap items-center gap-3 border-t border-zinc-100 pt-5">
            <RotateConfirm
              label="Rotate secret"
              title="Rotate the signing secret?"
              description={
                "A new secret is created and the current one stops working immediately: " +
                "every request signed with it gets 401 until your sending system uses the new secret. " +
                "Update it right after rotating."
              }
              onConfirm={rotate}
            />
            <Button variant="secondary" onClick={sendTest} disabled={testing}>
              <Send className="size-4" aria-hidden />
              {testing ? "Sending…" : "Send test event"}
            </Button>
            {testResult ? (
              <p role="status" aria-label="Test result" className="text-sm text-zinc-600">
                Last test:{" "}
                <Badge tone={testResult.status === 200 ? "green" : testResult.status >= 500 ? "red" : "amber"} mono>
                  {testResult.status}
                </Badge>{" "}
                {testResult.summary}
              </p>
            ) : null}
          </div>
        ) : (
          <p className="border-t border-zinc-100 pt-4 text-sm text-zinc-500">
            You have read-only access. Owners and admins can rotate the secret, switch the source and send test events.
          </p>
        )}
      </div>
    </section>
  );
}
