import { Badge } from "@/components/ui/badge";
import { SCOPE_DESCRIPTIONS, SCOPE_PRESETS, SCOPES } from "@/lib/api-keys/scopes";
import { ScopeBadges } from "./scope-badges";

/** The spec's guidance, shown while an account has no keys: which scopes each kind of integration needs. */
export function RecommendedScopes() {
  return (
    <section
      aria-labelledby="recommended-scopes"
      className="grid gap-6 rounded-xl bg-white p-6 shadow-sm ring-1 ring-zinc-200 lg:grid-cols-2"
    >
      <div>
        <h2 id="recommended-scopes" className="text-sm font-semibold text-zinc-900">
          Recommended scopes
        </h2>
        <p className="mt-1 text-sm text-zinc-600">Give each integration the minimum it needs.</p>
        <ul className="mt-4 divide-y divide-zinc-100">
          {SCOPE_PRESETS.map((preset) => (
            <li key={preset.label} className="flex flex-wrap items-center justify-between gap-2 py-2.5">
              <span className="text-sm text-zinc-800">{preset.label}</span>
              <ScopeBadges scopes={preset.scopes} />
            </li>
          ))}
        </ul>
      </div>
      <div>
        <h2 className="text-sm font-semibold text-zinc-900">What each scope allows</h2>
        <p className="mt-1 text-sm text-zinc-600">A key can only do what its scopes allow.</p>
        <dl className="mt-4 divide-y divide-zinc-100">
          {SCOPES.map((scope) => (
            <div key={scope} className="grid grid-cols-[10rem_1fr] gap-3 py-2.5">
              <dt>
                <Badge tone="indigo" mono>
                  {scope}
                </Badge>
              </dt>
              <dd className="text-sm text-zinc-600">{SCOPE_DESCRIPTIONS[scope]}</dd>
            </div>
          ))}
        </dl>
      </div>
    </section>
  );
}
