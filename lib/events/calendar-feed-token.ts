import "server-only";
import crypto from "node:crypto";
import { recordAudit, type AuditAction } from "@/lib/audit/record";
import type { SessionContext } from "@/lib/auth/session";
import { db } from "@/lib/platform/db/client";
import type { Prisma } from "@/lib/platform/db/generated/client";
import { openSealedText, sealText } from "@/lib/platform/crypto/secrets";
import { appBaseUrl } from "@/lib/platform/http/app-url";

/*
 * The secret token of the account's feed URL (docs/calendar-feeds.md): 32 random bytes in base64url. The
 * feed route finds the account by the token's SHA-256 alone, like API keys; the token is also kept sealed
 * under APP_ENCRYPTION_KEY, so the dashboard can show the URL again. One token per account: a rotation
 * replaces it in one statement, and the old URL answers 404 from the next request on.
 */

const TOKEN_PURPOSE = "calendar-feed-token:v1";
export const FEED_PATH_PREFIX = "/api/v1/events/calendar/";
export const FEED_SUFFIX = ".ics";

export function generateFeedToken(): string {
  return crypto.randomBytes(32).toString("base64url");
}

/** Hex SHA-256: the form the route looks a token up by. Tokens are random, so no salt or slow hash. */
export function hashFeedToken(token: string): string {
  return crypto.createHash("sha256").update(token, "utf8").digest("hex");
}

/**
 * The path segment the route receives (`<token>.ics`) back to the token. A segment without the suffix
 * becomes a text no token can be ("!" is not base64url), so it still costs the one lookup and finds nothing.
 */
export function tokenOfSegment(segment: string): string {
  return segment.endsWith(FEED_SUFFIX) ? segment.slice(0, -FEED_SUFFIX.length) : `!${segment}`;
}

export function feedUrlOf(token: string, baseUrl: string = appBaseUrl()): string {
  return `${baseUrl}${FEED_PATH_PREFIX}${token}${FEED_SUFFIX}`;
}

type Tx = Prisma.TransactionClient;

const actorOf = (context: SessionContext) => ({
  id: context.user.id,
  name: context.user.name,
  email: context.user.email,
});

async function audit(tx: Tx, context: SessionContext, action: AuditAction): Promise<void> {
  const target = { type: "account" as const, id: context.account.id, label: "Calendar feed URL" };
  await recordAudit({ accountId: context.account.id, actor: actorOf(context), action, target }, tx);
}

/**
 * The account's feed URL, creating its token on the first visit. Showing it is a reveal of a secret, so it
 * is audited like a signing secret's reveal. Concurrent first visits meet in ON CONFLICT and agree.
 */
export async function revealFeedUrl(context: SessionContext): Promise<string> {
  const token = generateFeedToken();
  const sealed = await db.prisma.$transaction(async (tx) => {
    const rows = await tx.$queryRaw<{ token_sealed: string }[]>`
      INSERT INTO published_calendars (account_id, token_hash, token_sealed)
      VALUES (${context.account.id}::uuid, ${hashFeedToken(token)}, ${sealText(token, TOKEN_PURPOSE)})
      ON CONFLICT (account_id) DO UPDATE SET token_sealed = published_calendars.token_sealed
      RETURNING token_sealed`;
    await audit(tx, context, "calendar_feed.url_revealed");
    return rows[0].token_sealed;
  });
  return feedUrlOf(openSealedText(sealed, TOKEN_PURPOSE));
}

/** A new token in place of the old one (or the first one), with its audit entry, in one transaction. */
export async function rotateFeedToken(context: SessionContext): Promise<string> {
  const token = generateFeedToken();
  await db.prisma.$transaction(async (tx) => {
    await tx.$executeRaw`
      INSERT INTO published_calendars (account_id, token_hash, token_sealed, rotated_at)
      VALUES (${context.account.id}::uuid, ${hashFeedToken(token)}, ${sealText(token, TOKEN_PURPOSE)}, now())
      ON CONFLICT (account_id) DO UPDATE
        SET token_hash = EXCLUDED.token_hash, token_sealed = EXCLUDED.token_sealed, rotated_at = now()`;
    await audit(tx, context, "calendar_feed.rotated");
  });
  return feedUrlOf(token);
}
