import type { Env } from "./client-ip";

/**
 * The base URL the app shows in addresses meant for other systems and sites (a webhook endpoint, the
 * chat widget's embed snippet): APP_BASE_URL, else NEXTAUTH_URL, without a trailing slash.
 */
export function appBaseUrl(env: Env = process.env): string {
  return (env.APP_BASE_URL || env.NEXTAUTH_URL || "http://localhost:3000").replace(/\/+$/, "");
}
