import { CircleCheck, Circle } from "lucide-react";
import Link from "next/link";
import { SectionHeading } from "@/components/ui/section-heading";
import type { Onboarding } from "@/lib/overview/model";

const STEPS: Array<{ key: keyof Onboarding; label: string; href: string; hint: string }> = [
  {
    key: "createdKey",
    label: "Create an API key",
    href: "/settings/api-keys",
    hint: "For your backend or automation tool.",
  },
  {
    key: "connectedWebhook",
    label: "Connect the webhook",
    href: "/knowledge/events/webhook",
    hint: "Send a first signed event.",
  },
  {
    key: "installedWidget",
    label: "Install the chat widget",
    href: "/settings/chat-widget",
    hint: "Embed it on your website.",
  },
  {
    key: "addedSubscription",
    label: "Add a subscription",
    href: "/settings/webhooks",
    hint: "Get notified of changes.",
  },
];

/** The new account's checklist; each step ticks itself once done. */
export function OnboardingList({ onboarding }: { onboarding: Onboarding }) {
  const done = STEPS.filter((step) => onboarding[step.key]).length;
  return (
    <section aria-labelledby="get-started" className="rounded-xl bg-white p-5 shadow-sm ring-1 ring-indigo-200">
      <SectionHeading id="get-started" title="Get started">
        {done} of {STEPS.length} done.
      </SectionHeading>
      <ol aria-labelledby="get-started" className="mt-3 grid gap-2 sm:grid-cols-2">
        {STEPS.map((step) => {
          const ticked = onboarding[step.key];
          return (
            <li key={step.key}>
              <Link
                href={step.href}
                className="flex items-start gap-2.5 rounded-lg px-3 py-2 ring-1 ring-zinc-200 hover:bg-zinc-50"
              >
                {ticked ? (
                  <CircleCheck className="mt-0.5 size-5 shrink-0 text-emerald-600" aria-hidden />
                ) : (
                  <Circle className="mt-0.5 size-5 shrink-0 text-zinc-300" aria-hidden />
                )}
                <span className="text-sm">
                  <span className={ticked ? "font-medium text-zinc-500 line-through" : "font-medium text-zinc-900"}>
                    {step.label}
                  </span>
                  <span className="sr-only">{ticked ? " (done)" : " (to do)"}</span>
                  <span className="block text-xs text-zinc-500">{step.hint}</span>
                </span>
              </Link>
            </li>
          );
        })}
      </ol>
    </section>
  );
}

export const onboardingComplete = (onboarding: Onboarding) => STEPS.every((step) => onboarding[step.key]);
