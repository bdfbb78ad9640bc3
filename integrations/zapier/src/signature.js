"use strict";

const crypto = require("node:crypto");

/*
 * Verifies a delivered notification as Standard Webhooks does (docs/outbound-webhooks.md, "Verifying
 * signatures"): HMAC-SHA256 keyed with the bytes of the subscription's secret (base64 after "whsec_") over
 * `${webhook-id}.${webhook-timestamp}.${raw body}`, sent as "v1,<base64>"; several space-separated
 * signatures during the 24 hours after a rotation, any one of which may match. A timestamp more than five
 * minutes from now is refused, so a captured notification cannot be replayed later.
 */

const TOLERANCE_SECONDS = 5 * 60;
const SECRET_PREFIX = "whsec_";

/** A header of the delivered request: Zapier hands them over as "Http-Webhook-Id"; plain names also work. */
const headerOf = (headers, name) => {
  const entries = Object.entries(headers || {}).map(([key, value]) => [key.toLowerCase(), value]);
  for (const wanted of [`http-${name}`, name]) {
    const found = entries.find(([key]) => key === wanted);
    if (found && found[1] !== undefined && found[1] !== null) return String(found[1]);
  }
  return null;
};

const expectedSignature = (secret, id, timestamp, body) => {
  const key = Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, "base64");
  return crypto.createHmac("sha256", key).update(`${id}.${timestamp}.${body}`).digest();
};

const matches = (expected, candidate) => {
  const [version, value] = candidate.split(",", 2);
  if (version !== "v1" || !value) return false;
  const given = Buffer.from(value, "base64");
  return given.length === expected.length && crypto.timingSafeEqual(given, expected);
};

/**
 * { ok: true } when rawRequest ({headers, content}) carries a valid, fresh signature by the secret, else
 * { ok: false, reason } in words for the Zap's history.
 */
const verifyNotification = (secret, rawRequest, now = Date.now()) => {
  if (typeof secret !== "string" || !secret) {
    return { ok: false, reason: "no signing secret is stored for this subscription" };
  }
  const headers = (rawRequest && rawRequest.headers) || {};
  const id = headerOf(headers, "webhook-id");
  const timestamp = headerOf(headers, "webhook-timestamp");
  const signatures = headerOf(headers, "webhook-signature");
  if (!id || !timestamp || !signatures) {
    return { ok: false, reason: "the webhook-id, webhook-timestamp or webhook-signature header is missing" };
  }
  if (!/^\d{1,12}$/.test(timestamp.trim())) {
    return { ok: false, reason: "the webhook-timestamp header is not a Unix time" };
  }
  if (Math.abs(now / 1000 - Number(timestamp.trim())) > TOLERANCE_SECONDS) {
    return { ok: false, reason: "the webhook-timestamp is more than five minutes away from now" };
  }
  const body = rawRequest && typeof rawRequest.content === "string" ? rawRequest.content : "";
  const expected = expectedSignature(secret, id, timestamp.trim(), body);
  if (
    !signatures
      .trim()
      .split(/\s+/)
      .some((candidate) => matches(expected, candidate))
  ) {
    return { ok: false, reason: "no signature matches the subscription secret" };
  }
  return { ok: true };
};

module.exports = { verifyNotification, TOLERANCE_SECONDS };
