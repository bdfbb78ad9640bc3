'use strict';

const { apiUrl, throwApiError } = require('./api');

/*
 * REST-hook plumbing shared by the triggers: subscribe and unsubscribe through /api/public/webhooks
 * (docs/outbound-webhooks.md), and the notification body {"id", "type", "created_at", "data"} reduced to
 * its `data`, the object as the API returns it.
 */

const LIST_LIMIT = 25;

/** POST /api/public/webhooks with Zapier's target URL; what it returns becomes bundle.subscribeData. */
const subscribe = (eventTypes, description) => async (z, bundle) => {
  const response = await z.request({
    url: apiUrl(bundle, '/webhooks'),
    method: 'POST',
    body: { url: bundle.targetUrl, event_types: eventTypes, description },
  });
  // The signing secret is only useful to a receiver that verifies; Zapier does not, so it is not kept.
  const { secret, ...subscription } = response.data;
  void secret;
  return subscription;
};

/** DELETE /api/public/webhooks/{id}; a subscription already deleted (in the dashboard) counts as done. */
const unsubscribe = async (z, bundle) => {
  const id = bundle.subscribeData && bundle.subscribeData.id;
  if (!id) return {};
  const response = await z.request({
    url: apiUrl(bundle, `/webhooks/${encodeURIComponent(id)}`),
    method: 'DELETE',
    skipThrowForStatus: true,
  });
  if (response.status >= 400 && response.status !== 404) throwApiError(z, response);
  return {};
};

/** The object of one notification, with an `id` for Zapier's de-duplication. */
const objectOf = (notification) => {
  const data = notification && notification.data;
  if (!data || typeof data !== 'object') return null;
  return data.id ? data : { ...data, id: notification.id };
};

/** A delivered notification: bundle.cleanedRequest is its JSON body. */
const perform = async (z, bundle) => {
  const object = objectOf(bundle.cleanedRequest);
  return object ? [object] : [];
};

/**
 * Recent notifications of the given types (GET /api/public/webhook-events?type=…), newest first, as their
 * objects: sample data when a Zap is set up. Each type is one page of the newest; merged by time.
 */
const listNotifications = (eventTypes) => async (z, bundle) => {
  const pages = await Promise.all(
    eventTypes.map((type) =>
      z.request({ url: apiUrl(bundle, '/webhook-events'), method: 'GET', params: { type, limit: LIST_LIMIT } }),
    ),
  );
  const notifications = pages.flatMap((response) => response.data.data);
  notifications.sort((a, b) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : 0));
  return notifications.slice(0, LIST_LIMIT).map(objectOf).filter(Boolean);
};

/** The newest leads (GET /api/public/leads, newest first by default). */
const listLeads = async (z, bundle) => {
  const response = await z.request({ url: apiUrl(bundle, '/leads'), method: 'GET', params: { limit: LIST_LIMIT } });
  return response.data.data;
};

/**
 * Conversations in one status (GET /api/public/conversations?status=…), most recently active first:
 * for a conversation waiting for a person, that is the newest request first.
 */
const listConversations = (status) => async (z, bundle) => {
  const response = await z.request({ url: apiUrl(bundle, '/conversations'), method: 'GET', params: { status, limit: LIST_LIMIT } });
  return response.data.data;
};

module.exports = { subscribe, unsubscribe, perform, listNotifications, listLeads, listConversations };
