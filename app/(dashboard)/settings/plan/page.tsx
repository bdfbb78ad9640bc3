import { Check } from "lucide-react";
import type { Metadata } from "next";
import { cn } from "@/components/ui/cn";
import { PageHeader } from "@/components/ui/page-header";
import { PLANS, type PlanName } from "@/lib/accounts/plans";
import { requireSession } from "@/lib/auth/session";
import { SUBSCRIPTION_LIMITS } from "@/lib/webhook-subscriptions/model";

export const metadata: Metadata = { title: "Plan" };

const numberFormat = new Intl.NumberFormat("en-US");

export default async function PlanPage() {
  const { account } = await requireSession();
  return (
    <>
      <PageHeader
        title="Plan"
        description={
          "Your plan sets how many events, webhook sources, " +
          "API keys and webhook subscriptions this account can hold."
        }
      />
      <div className="grid gap-4 sm:grid-cols-2">
        {(Object.keys(PLANS) as PlanName[]).map((name) => {
          const plan = PLANS[name];
          const current = account.plan === name;
          return (
            <section
              key={name}
              aria-label={`${plan.label} plan`}
              className={cn(
                "rounded-xl bg-white p-6 shadow-sm ring-1",
                current ? "ring-2 ring-indigo-600" : "ring-zinc-200",
              )}
            >
              <div className="flex items-center justify-between">
                <h2 className="text-base font-semibold">{plan.label}</h2>
                {current ? (
                  <span className="rounded-full bg-indigo-50 px-2.5 py-0.5 text-xs font-medium text-indigo-700">
                    Current plan
                  </span>
                ) : null}
              </div>
              <ul className="mt-4 space-y-2 text-sm text-zinc-700">
                {[
                  `${numberFormat.format(plan.maxEvents)} events`,
                  `${plan.maxSources} webhook sources`,
                  `${plan.maxActiveApiKeys} active API keys`,
                  `${SUBSCRIPTION_LIMITS[name]} webhook subscriptions`,
                ].map((line) => (
                  <li key={line} className="flex items-center gap-2">
                    <Check className="size-4 text-indigo-600" aria-hidden />
                    {line}
                  </li>
                ))}
              </ul>
            </section>
          );
        })}
      </div>
    </>
  );
}
