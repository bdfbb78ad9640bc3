import "server-only";
import { checkPlanLimit } from "@/lib/accounts/plan-limit";
import { PLANS } from "@/lib/accounts/plans";
import { recordAudit, type AuditEntry } from "@/lib/audit/record";
import { canManage, type SessionContext } from "@/lib/auth/session";
import { db } from "@/lib/platform/db/client";
import type { Prisma } from "@/lib/platform/db/generated/client";
import { appBaseUrl } from "@/lib/platform/http/app-url";
import { isUuid } from "@/lib/platform/ids";
import { isPublicId, newPublicId } from "@/lib/platform/ids";
import { decryptSecret, encryptSecret, generateSecret } from "@/lib/platform/crypto/secrets";
import type { Failure } from "@/lib/platform/result";

/*
 * Webhook sources for the dashboard (Events → Webhook). Reads take the account id; changes take the
 * session context, re-check the role (server actions are public endpoints) and write an audit entry in
 * the same transaction as the change. Every query is scoped by account. `sourceId` may be the row id
 * or the public id (src_…).
 */

export type WebhookSourceView = {
  id: string;
  /** The last path segment of the endpoint URL. */
  publicId: string;
  name: string;
  active: boolean;
  rateLimitPerMinute: number;
  endpointUrl: string;
  secretRotatedAt: Date | null;
  createdAt: Date;
};

export type SourceFailure = Failure<"forbidden" | "not_found" | "plan_limit_reached" | "invalid"> & {
  field?: "name" | "rateLimitPerMinute";
};
export type SourceResult<T> = ({ ok: true } & T) | SourceFailure;

export const MAX_SOURCE_NAME_LENGTH = 100;
export const MAX_RATE_LIMIT_PER_MINUTE = 100_000;

/** The per-source default for new sources: WEBHOOK_RATE_LIMIT_PER_MINUTE, else 300 (docs/webhook.md). */
export function defaultRateLimit(): number {
  const configured = Number(process.env.WEBHOOK_RATE_LIMIT_PER_MINUTE);
  return Number.isInteger(configured) && configured >= 1 && configured <= MAX_RATE_LIMIT_PER_MINUTE ? configured : 300;
}

export function endpointUrl(publicId: string): string {
  return `${appBaseUrl()}/api/v1/events/webhook/${publicId}`;
}

type SourceRow = {
  id: string;
  publicId: string;
  name: string;
  active: boolean;
  rateLimitPerMinute: number;
  secretRotatedAt: Date | null;
  createdAt: Date;
};
const viewSelect = {
  id: true,
  publicId: true,
  name: true,
  active: true,
  rateLimitPerMinute: true,
  secretRotatedAt: true,
  createdAt: true,
} as const;

const toView = (row: SourceRow): WebhookSourceView => ({ ...row, endpointUrl: endpointUrl(row.publicId) });

function sourceWhere(accountId: string, sourceId: string): Prisma.WebhookSourceWhereInput | null {
  if (!isUuid(accountId)) return null;
  if (isUuid(sourceId)) return { id: sourceId, accountId };
  if (isPublicId(sourceId, "source")) return { publicId: sourceId, accountId };
  return null;
}

const forbidden: SourceFailure = {
  ok: false,
  code: "forbidden",
  message: "Only owners and admins can manage webhook sources.",
};
const notFound: SourceFailure = { ok: false, code: "not_found", message: "This webhook source does not exist." };

function validName(name: unknown): string | SourceFailure {
  const trimmed = typeof name === "string" ? name.trim() : "";
  if (!trimmed) return { ok: false, code: "invalid", field: "name", message: "Enter a name for the source." };
  if (trimmed.length > MAX_SOURCE_NAME_LENGTH) {
    return { ok: false, code: "invalid", field: "name", message: `Use at most ${MAX_SOURCE_NAME_LENGTH} characters.` };
  }
  return trimmed;
}

/** Who an audit entry of a person's change names: the session's account and user. */
const auditedBy = (context: SessionContext) => ({ accountId: context.account.id, actor: context.user });

/** A person's action on one source of the account, in one transaction: owners and admins only. */
async function withManagedSource<T extends object>(
  context: SessionContext,
  sourceId: string,
  action: (tx: Prisma.TransactionClient, where: Prisma.WebhookSourceWhereInput) => Promise<SourceResult<T>>,
): Promise<SourceResult<T>> {
  if (!canManage(context)) return forbidden;
  const where = sourceWhere(context.account.id, sourceId);
  if (!where) return notFound;
  return db.prisma.$transaction((tx) => action(tx, where));
}

/** Writes `data` to a source found in the same transaction; the row as the views read it. */
function updateSource(
  tx: Prisma.TransactionClient,
  accountId: string,
  id: string,
  data: Prisma.WebhookSourceUpdateInput,
): Promise<SourceRow> {
  return tx.webhookSource.update({ where: { accountId_id: { accountId, id } }, data, select: viewSelect });
}

/** The audit entry of a change to a source, written in the change's transaction. */
function auditSource(
  tx: Prisma.TransactionClient,
  source: { id: string; name: string },
  entry: Omit<AuditEntry, "target">,
): Promise<void> {
  return recordAudit({ ...entry, target: { type: "webhook_source", id: source.id, label: source.name } }, tx);
}

export async function listSources(accountId: string): Promise<WebhookSourceView[]> {
  if (!isUuid(accountId)) return [];
  const rows = await db.prisma.webhookSource.findMany({
    where: { accountId },
    select: viewSelect,
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  return rows.map(toView);
}

export async function getSource(accountId: string, sourceId: string): Promise<WebhookSourceView | null> {
  const where = sourceWhere(accountId, sourceId);
  if (!where) return null;
  const row = await db.prisma.webhookSource.findFirst({ where, select: viewSelect });
  return row ? toView(row) : null;
}

/** Inserts a source with a fresh id and secret; used by createSource and at sign-up. */
async function insertSource(tx: Prisma.TransactionClient, accountId: string, name: string) {
  const secret = generateSecret();
  const row = await tx.webhookSource.create({
    data: {
      accountId,
      name,
      publicId: newPublicId("source"),
      secretCiphertext: encryptSecret(secret),
      rateLimitPerMinute: defaultRateLimit(),
    },
    select: viewSelect,
  });
  return { source: toView(row), secret };
}

/** A new account has one source ready (run inside the sign-up transaction). */
export async function createInitialSource(tx: Prisma.TransactionClient, accountId: string): Promise<void> {
  const { source } = await insertSource(tx, accountId, "Default source");
  await auditSource(tx, source, {
    accountId,
    actor: null,
    action: "webhook_source.created",
    metadata: { publicId: source.publicId },
  });
}

/** Creates a source within the plan's source limit; the secret is returned so the dashboard can show it. */
export async function createSource(
  context: SessionContext,
  name: string,
): Promise<SourceResult<{ source: WebhookSourceView; secret: string }>> {
  if (!canManage(context)) return forbidden;
  const valid = validName(name);
  if (typeof valid !== "string") return valid;
  const accountId = context.account.id;
  return db.prisma.$transaction(async (tx) => {
    const room = await checkPlanLimit(
      tx,
      accountId,
      (plan) => PLANS[plan].maxSources,
      () => tx.webhookSource.count({ where: { accountId } }),
    );
    if (!room) return notFound;
    if (!room.ok) {
      return {
        ok: false as const,
        code: "plan_limit_reached" as const,
        message: `Your plan allows ${room.limit} webhook sources. Delete or reuse one, or upgrade the plan.`,
      };
    }
    const created = await insertSource(tx, accountId, valid);
    await auditSource(tx, created.source, {
      ...auditedBy(context),
      action: "webhook_source.created",
      metadata: { publicId: created.source.publicId },
    });
    return { ok: true as const, ...created };
  });
}

export async function setSourceActive(
  context: SessionContext,
  sourceId: string,
  active: boolean,
): Promise<SourceResult<{ source: WebhookSourceView }>> {
  return withManagedSource(context, sourceId, async (tx, where) => {
    const before = await tx.webhookSource.findFirst({ where, select: viewSelect });
    if (!before) return notFound;
    if (before.active === active) return { ok: true as const, source: toView(before) };
    const row = await updateSource(tx, context.account.id, before.id, { active });
    await auditSource(tx, row, {
      ...auditedBy(context),
      action: active ? "webhook_source.activated" : "webhook_source.deactivated",
    });
    return { ok: true as const, source: toView(row) };
  });
}

export async function updateSourceSettings(
  context: SessionContext,
  sourceId: string,
  settings: { name?: string; rateLimitPerMinute?: number },
): Promise<SourceResult<{ source: WebhookSourceView }>> {
  if (!canManage(context)) return forbidden;
  const data: { name?: string; rateLimitPerMinute?: number } = {};
  if (settings.name !== undefined) {
    const valid = validName(settings.name);
    if (typeof valid !== "string") return valid;
    data.name = valid;
  }
  if (settings.rateLimitPerMinute !== undefined) {
    const limit = settings.rateLimitPerMinute;
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_RATE_LIMIT_PER_MINUTE) {
      return {
        ok: false,
        code: "invalid",
        field: "rateLimitPerMinute",
        message: `Enter a whole number from 1 to ${MAX_RATE_LIMIT_PER_MINUTE.toLocaleString("en-US")}.`,
      };
    }
    data.rateLimitPerMinute = limit;
  }
  return withManagedSource(context, sourceId, async (tx, where) => {
    const before = await tx.webhookSource.findFirst({ where, select: viewSelect });
    if (!before) return notFound;
    const row = await updateSource(tx, context.account.id, before.id, data);
    const changes = Object.fromEntries(
      Object.entries(data).map(([key, value]) => [key, { from: before[key as keyof typeof data], to: value }]),
    );
    await auditSource(tx, row, { ...auditedBy(context), action: "webhook_source.updated", metadata: changes });
    return { ok: true as const, source: toView(row) };
  });
}

/**
 * The secret shown to a person (Reveal in the dashboard): only to owners and admins, and recorded in
 * the audit log in the same transaction as the read.
 */
export async function revealSecret(
  context: SessionContext,
  sourceId: string,
): Promise<SourceResult<{ secret: string }>> {
  return withManagedSource(context, sourceId, async (tx, where) => {
    const row = await tx.webhookSource.findFirst({ where, select: { id: true, name: true, secretCiphertext: true } });
    if (!row) return notFound;
    await auditSource(tx, row, { ...auditedBy(context), action: "webhook_source.secret_revealed" });
    return { ok: true as const, secret: decryptSecret(row.secretCiphertext) };
  });
}

/** The current signing secret in plain text, for the server's own use (test events). People use revealSecret. */
export async function readSecret(accountId: string, sourceId: string): Promise<string | null> {
  const where = sourceWhere(accountId, sourceId);
  if (!where) return null;
  const row = await db.prisma.webhookSource.findFirst({ where, select: { secretCiphertext: true } });
  return row ? decryptSecret(row.secretCiphertext) : null;
}

/**
 * Replaces the secret in one transaction. The webhook reads the ciphertext on every request, so the
 * old secret fails from the very next request on every instance.
 */
export async function rotateSecret(
  context: SessionContext,
  sourceId: string,
): Promise<SourceResult<{ source: WebhookSourceView; secret: string }>> {
  return withManagedSource(context, sourceId, async (tx, where) => {
    const secret = generateSecret();
    const before = await tx.webhookSource.findFirst({ where, select: { id: true } });
    if (!before) return notFound;
    const row = await updateSource(tx, context.account.id, before.id, {
      secretCiphertext: encryptSecret(secret),
      secretRotatedAt: new Date(),
    });
    await auditSource(tx, row, { ...auditedBy(context), action: "webhook_source.secret_rotated" });
    return { ok: true as const, source: toView(row), secret };
  });
}
