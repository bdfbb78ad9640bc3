import crypto from "node:crypto";

/*
 * Standard Webhooks signatures (docs/outbound-webhooks.md, "Verifying signatures"): HMAC-SHA256 keyed with
 * the bytes of the secret (base64 after "whsec_") over `${id}.${timestamp}.${body}`, sent as
 * "v1,<base64>". Several secrets (24 hours after a rotation) give several space-separated signatures;
 * receivers accept the notification when any of them matches.
 */

export function signPayload(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.startsWith("whsec_") ? secret.slice("whsec_".length) : secret, "base64");
  return `v1,${crypto.createHmac("sha256", key).update(`${id}.${timestamp}.${body}`).digest("base64")}`;
}

export function signatureHeader(secrets: readonly string[], id: string, timestamp: number, body: string): string {
  return secrets.map((secret) => signPayload(secret, id, timestamp, body)).join(" ");
}
