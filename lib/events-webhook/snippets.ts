/*
 * Copy-paste sending examples for the integration guide, pre-filled with a source's endpoint. The
 * secret is read from WEBHOOK_SECRET so that it never lands in shell history or source control.
 * tests/unit/webhook-snippets.test.ts runs the signing part of each against the published test vector.
 */

export type SnippetLanguage = "curl" | "node" | "python";

const SAMPLE_EVENT = {
  title: "Spring Open Day",
  starts_at: "2026-05-01T10:00:00+02:00",
  ends_at: "2026-05-01T16:00:00+02:00",
  location: "Main Hall",
  url: "https://example.com/open-day",
  price: "Free",
};

export const SAMPLE_BODY = JSON.stringify({ action: "upsert", event: SAMPLE_EVENT });

export function curlSnippet(endpoint: string): string {
  return [
    `BODY='${SAMPLE_BODY}'`,
    `TS=$(date +%s)`,
    `SIG=$(printf '%s.%s' "$TS" "$BODY" | openssl dgst -sha256 -hmac "$WEBHOOK_SECRET" -hex | sed 's/^.* //')`,
    `curl -sS -X POST '${endpoint}' \\`,
    `  -H 'Content-Type: application/json' \\`,
    `  -H "X-Service-Timestamp: $TS" \\`,
    `  -H "X-Service-Signature: sha256=$SIG" \\`,
    `  --data-raw "$BODY"`,
  ].join("\n");
}

export function nodeSnippet(endpoint: string): string {
  return `import crypto from "node:crypto";

const body = JSON.stringify({
  action: "upsert",
  event: ${JSON.stringify(SAMPLE_EVENT, null, 2).replace(/\n/g, "\n  ")},
});
const timestamp = Math.floor(Date.now() / 1000).toString();
// Sign exactly the bytes you send: the timestamp, a period, then the raw body.
const signature = "sha256=" + crypto.createHmac("sha256", process.env.WEBHOOK_SECRET).update(\`\${timestamp}.\${body}\`).digest("hex");

const response = await fetch("${endpoint}", {
  method: "POST",
  headers: { "Content-Type": "application/json", "X-Service-Timestamp": timestamp, "X-Service-Signature": signature },
  body,
});
console.log(response.status, await response.json());`;
}

export function pythonSnippet(endpoint: string): string {
  return `import hashlib, hmac, json, os, time, urllib.request

body = json.dumps({
    "action": "upsert",
    "event": ${JSON.stringify(SAMPLE_EVENT, null, 4).replace(/\n/g, "\n    ")},
}).encode()
timestamp = str(int(time.time()))
# Sign exactly the bytes you send: the timestamp, a period, then the raw body.
digest = hmac.new(os.environ["WEBHOOK_SECRET"].encode(), timestamp.encode() + b"." + body, hashlib.sha256).hexdigest()

request = urllib.request.Request("${endpoint}", data=body, method="POST", headers={
    "Content-Type": "application/json",
    "X-Service-Timestamp": timestamp,
    "X-Service-Signature": "sha256=" + digest,
})
with urllib.request.urlopen(request) as response:
    print(response.status, response.read().decode())`;
}

export function snippetsFor(endpoint: string): Record<SnippetLanguage, string> {
  return { curl: curlSnippet(endpoint), node: nodeSnippet(endpoint), python: pythonSnippet(endpoint) };
}
