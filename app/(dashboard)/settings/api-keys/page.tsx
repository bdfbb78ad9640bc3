import { KeyRound } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { PLANS } from "@/lib/accounts/plans";
import { listApiKeys } from "@/lib/api-keys/keys";
import { canManage, requireSession } from "@/lib/auth/session";
import { formatMoment } from "@/lib/platform/format/date-time";
import { ApiKeysTable, type ApiKeyRow } from "./_components/api-keys-table";
import { CreateApiKeyDialog } from "./_components/create-api-key-dialog";
import { RecommendedScopes } from "./_components/recommended-scopes";
import { ReadOnlyNote } from "@/components/ui/read-only-note";

export const metadata: Metadata = { title: "API Keys" };

export default async function ApiKeysPage() {
  const context = await requireSession();
  const { account } = context;
  const manager = canManage(context);
  const now = new Date();
  const keys = await listApiKeys(account.id, now);
  const limit = PLANS[account.plan].maxActiveApiKeys;
  const active = keys.filter((key) => key.state === "active").length;

  // Only display fields cross to the browser; dates are formatted here in the account's time zone.
  const rows: ApiKeyRow[] = keys.map((key) => ({
    id: key.id,
    name: key.name,
    prefix: key.prefix,
    last4: key.last4,
    scopes: key.scopes,
    state: key.state,
    created: formatMoment(key.createdAt, account.timezone),
    createdBy: key.createdBy,
    lastUsed: key.lastUsedAt ? formatMoment(key.lastUsedAt, account.timezone) : null,
    expires: key.expiresAt ? formatMoment(key.expiresAt, account.timezone) : null,
    revoked: key.revokedAt ? formatMoment(key.revokedAt, account.timezone) : null,
  }));

  const createButton = manager ? <CreateApiKeyDialog /> : null;

  return (
    <>
      <PageHeader
        title="API Keys"
        description={
          <>
            Keys let automation tools and custom integrations act on this account, limited to the scopes you choose.
            What each key can call:{" "}
            <Link href="/docs/api" className="font-medium text-zinc-900 underline underline-offset-2">
              API reference
            </Link>
            .
          </>
        }
        actions={rows.length > 0 ? createButton : null}
      />
      {!manager ? (
        <ReadOnlyNote>
          You can view this account&apos;s keys. Only owners and admins can create or revoke them.
        </ReadOnlyNote>
      ) : null}
      {rows.length === 0 ? (
        <div className="space-y-6">
          <EmptyState icon={<KeyRound className="size-6" aria-hidden />} title="No API keys yet" action={createButton}>
            <p>
              An API key lets a tool such as Zapier, or your own backend, call this account&apos;s API with{" "}
              <code className="rounded bg-zinc-100 px-1 py-0.5 font-mono text-xs whitespace-nowrap">
                Authorization: Bearer &lt;key&gt;
              </code>
              .
            </p>
            <p className="mt-2">
              Create one key per integration, with only the scopes it needs. The full key is shown once, when you create
              it.
            </p>
          </EmptyState>
          <RecommendedScopes />
        </div>
      ) : (
        <>
          <ApiKeysTable rows={rows} canManage={manager} />
          <p className="mt-3 text-xs text-zinc-500">
            {active} of {limit} active keys used. Revoked keys stay listed for the record and cannot be used again.
          </p>
        </>
      )}
    </>
  );
}
