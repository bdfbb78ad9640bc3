"use strict";

const { apiUrl, throwApiError } = require("./api");
const { verifyNotification } = require("./signature");

/*
 * REST-hook plumbing shared by the triggers: subscribe and unsubscribe through /api/public/webhooks
 * (docs/outbound-webhooks.md), and the notification body {"id", "type", "created_at", "data"}, once its
 * signature is verified (src/signature.js), reduced to its `data`, the object as the API returns it.
 */

const LIST_LIMIT = 25;

/** POST /api/public/webhooks with Zapier's target URL; what it returns becomes bundle.subscribeData. */
const subscribe = (eventTypes, description) => async (z, bundle) => {
  const response = await z.request({
    url: apiUrl(bundle, "/webhooks"),
    method: "POST",
    body: { url: bundle.targetUrl, event_types: eventTypes, description },
  });
  // Zapier keeps what this returns as bundle.subscribeData, secret included: perform verifies with it.
  return response.data;
};

/** DELETE /api/public/webhooks/{id}; a subscription already deleted (in the dashboard) counts as done. */
const unsubscribe = async (z, bundle) => {
  const id = bundle.subscribeData && bundle.subscribeData.id;
  if (!id) return {};
  const response = await z.request({
    url: apiUrl(bundle, `/webhooks/${encodeURIComponent(id)}`),
    method: "DELETE",
    skipThrowForStatus: true,
  });
  if (response.status >= 400 && response.status !== 404) throwApiError(z, response);
  return {};
};

/** The object of one notification, with an `id` for Zapier's de-duplication. */
const objectOf = (notification) => {
  const data = notification && notification.data;
  if (!data || typeof data !== "object") return null;
  return data.id ? data : { ...data, id: notification.id };
};

/**
 * A delivered notification, verified against the subscription's secret before anything of it is used:
 * anyone who learns the hook URL could otherwise start the Zap with data of their choosing. A forged,
 * altered or stale (over five minutes old) notification halts the run (HaltedError: refused, not an error).
 */
const perform = async (z, bundle) => {
  const secret = bundle.subscribeData && bundle.subscribeData.secret;
  if (!secret) {
    throw new z.errors.Error(
      "This Zap subscribed before the integration kept the signing secret, so it cannot tell a real notification " +
        "from a forged one. Turn the Zap off and on again to subscribe anew.",
      "resubscribe_required",
      401,
    );
  }
  const rawRequest = bundle.rawRequest || {};
  const verdict = verifyNotification(secret, rawRequest);
  if (!verdict.ok) {
    throw new z.errors.HaltedError(`Refused a notification that the app did not sign: ${verdict.reason}.`);
  }
  let notification;
  try {
    notification = JSON.parse(rawRequest.content);
  } catch {
    throw new z.errors.HaltedError("Refused a notification whose body is not JSON.");
  }
  const object = objectOf(notification);
  return object ? [object] : [];
};

/**
 * Recent notifications of the given types (GET /api/public/webhook-events?type=…), newest first, as their
 * objects: sample data when a Zap is set up. Each type is one page of the newest; merged by time.
 */
const listNotifications = (eventTypes) => async (z, bundle) => {
  const pages = await Promise.all(
    eventTypes.map((type) =>
      z.request({ url: apiUrl(bundle, "/webhook-events"), method: "GET", params: { type, limit: LIST_LIMIT } }),
    ),
  );
  const notifications = pages.flatMap((response) => response.data.data);
  notifications.sort((a, b) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : 0));
  return notifications.slice(0, LIST_LIMIT).map(objectOf).filter(Boolean);
};

/** The newest leads (GET /api/public/leads, newest first by default). */
const listLeads = async (z, bundle) => {
  const response = await z.request({ url: apiUrl(bundle, "/leads"), method: "GET", params: { limit: LIST_LIMIT } });
  return response.data.data;
};

/**
 * Conversations in one status (GET /api/public/conversations?status=…), most recently active first:
 * for a conversation waiting for a person, that is the newest request first.
 */
const listConversations = (status) => async (z, bundle) => {
  const response = await z.request({
    url: apiUrl(bundle, "/conversations"),
    method: "GET",
    params: { status, limit: LIST_LIMIT },
  });
  return response.data.data;
};

module.exports = { subscribe, unsubscribe, perform, listNotifications, listLeads, listConversations };
