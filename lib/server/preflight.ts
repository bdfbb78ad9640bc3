import { encryptionKeyProblem } from "@/lib/platform/crypto/secrets";
import { isHttpsUrl } from "@/lib/platform/http/security-headers";
import type { Env } from "@/lib/platform/http/client-ip";
import { loopbackTargetsProblem } from "@/lib/webhook-subscriptions/addresses";

/*
 * What the production server checks before it listens; each problem is one sentence saying what to do.
 * Plain http is refused unless ALLOW_INSECURE_HTTP=1 says it is meant (npm start sets it for the
 * http://localhost URL it chooses itself): session cookies and API keys must not cross a network in clear.
 * Loopback notification targets are refused behind an https public URL (a real deployment).
 */
export function preflightProblems(env: Env = process.env): string[] {
  const problems: string[] = [];
  const url = env.NEXTAUTH_URL;
  if (!url) {
    problems.push(
      "NEXTAUTH_URL is not set. Set it to the app's public https URL, e.g. NEXTAUTH_URL=https://app.example.com",
    );
  } else if (!isHttpsUrl(url) && env.ALLOW_INSECURE_HTTP !== "1") {
    problems.push(
      `NEXTAUTH_URL (${url}) is not an https URL. Serve the app over https and set NEXTAUTH_URL to that URL, ` +
        `or set ALLOW_INSECURE_HTTP=1 to run over plain http on purpose (local use only).`,
    );
  }
  const keyProblem = encryptionKeyProblem(env.APP_ENCRYPTION_KEY);
  if (keyProblem) problems.push(keyProblem);
  const loopbackProblem = loopbackTargetsProblem(env);
  if (loopbackProblem) problems.push(loopbackProblem);
  if (!env.NEXTAUTH_SECRET)
    problems.push(
      "NEXTAUTH_SECRET is not set. Set it to a long random value, e.g. the output of: openssl rand -base64 32",
    );
  return problems;
}
