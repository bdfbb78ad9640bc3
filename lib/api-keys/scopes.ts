/*
 * The five scopes and the "recommended minimum scopes" table of docs/api-keys.md. Plain data with no server
 * imports: the dashboard's create dialog renders it, and the server validates against it.
 */

export const SCOPES = ["read:leads", "write:leads", "read:conversations", "write:conversations", "webhooks"] as const;

export type Scope = (typeof SCOPES)[number];

export const SCOPE_DESCRIPTIONS: Record<Scope, string> = {
  "read:leads": "Read lead records: list, search, fetch by identifier",
  "write:leads": "Create and update leads, change pipeline stage",
  "read:conversations": "Read conversation history and session data",
  "write:conversations": "Send messages to active handoff sessions",
  // A webhooks key receives every notification its subscriptions carry (lead.*, conversation.*, message.*):
  // it reads that data without read:leads or read:conversations, which the spec wants for trigger-only
  // tools (docs/api-keys.md), so the description says so where keys are made.
  webhooks:
    "Create subscriptions and receive the notifications they carry, including lead and conversation data " +
    "(also list, update and delete subscriptions)",
};

export type ScopePreset = { label: string; scopes: readonly Scope[] };

/** One row per line of the spec's recommended-minimum table, in its order. */
export const SCOPE_PRESETS: readonly ScopePreset[] = [
  { label: "Automation tool, trigger only", scopes: ["webhooks"] },
  { label: "Automation tool, trigger plus lead actions", scopes: ["webhooks", "read:leads", "write:leads"] },
  { label: "Workflow tool, receive events", scopes: ["webhooks"] },
  { label: "Workflow tool, receive events and write leads", scopes: ["webhooks", "write:leads"] },
  { label: "Custom backend, read only", scopes: ["read:leads", "read:conversations"] },
];

export function isScope(value: unknown): value is Scope {
  return typeof value === "string" && (SCOPES as readonly string[]).includes(value);
}

/** Scopes in the spec's canonical order, without duplicates, so stored sets compare and display alike. */
export function sortScopes(scopes: Iterable<Scope>): Scope[] {
  const set = new Set(scopes);
  return SCOPES.filter((scope) => set.has(scope));
}
