import crypto from "node:crypto";
import { createRequire } from "node:module";
import { Webhook } from "standardwebhooks";
import { inject } from "vitest";

// The integration is CommonJS, as the Zapier CLI packages it: load it and the platform with Node's own require.
const require = createRequire(import.meta.url);
export const App = require("../index.js");
const zapier = require("zapier-platform-core");

export const appTester = zapier.createAppTester(App);
export const errors = zapier.errors;

export const baseUrl = () => inject("zapierBaseUrl");

/** The connection Zapier would store: the app's URL and a key. */
export function authData(key = inject("zapierApiKey")) {
  return { base_url: baseUrl(), api_key: key };
}

/** A bundle as Zapier builds it for one step. */
export function bundle(extra = {}, key) {
  return { authData: authData(key), inputData: {}, ...extra };
}

/** A direct call to the public API with the main key, to check what the integration did. */
export async function api(path, init = {}) {
  const response = await fetch(`${baseUrl()}/api/public${path}`, {
    ...init,
    headers: { Authorization: `Bearer ${inject("zapierApiKey")}`, "Content-Type": "application/json", ...init.headers },
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

/** The error's name and message; createAppTester rejects with the platform's error objects. */
export async function failureOf(promise) {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected the step to fail");
}

/** A Standard Webhooks secret as the app makes them: "whsec_" + base64 of 32 random bytes. */
export const newSecret = () => `whsec_${crypto.randomBytes(32).toString("base64")}`;

/**
 * What Zapier hands a hook's perform for a delivered notification: the subscription's secret in
 * subscribeData, and the request signed with it as the app's delivery worker signs (Standard Webhooks),
 * with the header names Zapier gives them ("Http-Webhook-Id").
 */
export function delivered(notification, secret = newSecret(), subscribeData = { id: "whsub_delivered" }) {
  const content = JSON.stringify(notification);
  const sentAt = new Date();
  const headers = {
    "Http-Content-Type": "application/json",
    "Http-Webhook-Id": notification.id,
    "Http-Webhook-Timestamp": String(Math.floor(sentAt.getTime() / 1000)),
    "Http-Webhook-Signature": new Webhook(secret).sign(notification.id, sentAt, content),
  };
  const rawRequest = { headers, content };
  return { subscribeData: { ...subscribeData, secret }, rawRequest, cleanedRequest: notification };
}
