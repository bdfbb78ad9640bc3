/*
 * A fixed signing example, published in the README and shown in the dashboard so integrators can check
 * their HMAC code. The secret is an example only (bytes 0x00..0x1f); it is never issued to a source.
 * tests/unit/webhook-signing.test.ts checks that `signature` is what the signing rule produces.
 */
export const SIGNING_TEST_VECTOR = {
  secret: "whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8",
  timestamp: "1767225600",
  body:
    '{"action":"upsert","event":{"title":"Spring Open Day",' +
    '"starts_at":"2026-05-01T10:00:00+02:00","location":"Main Hall"}}',
  signedPayload:
    '1767225600.{"action":"upsert","event":{"title":"Spring Open Day",' +
    '"starts_at":"2026-05-01T10:00:00+02:00","location":"Main Hall"}}',
  signature: "sha256=6cbe5e3afdac3102ccf64a95717856e8f9205b5a4515fbdcff830acff5a08c82",
} as const;
