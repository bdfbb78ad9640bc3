export type PlanName = "free" | "pro";

export type PlanLimits = { label: string; maxEvents: number; maxSources: number; maxActiveApiKeys: number };

export const PLANS: Record<PlanName, PlanLimits> = {
  free: { label: "Free", maxEvents: 1_000, maxSources: 3, maxActiveApiKeys: 100 },
  pro: { label: "Pro", maxEvents: 100_000, maxSources: 25, maxActiveApiKeys: 100 },
};
