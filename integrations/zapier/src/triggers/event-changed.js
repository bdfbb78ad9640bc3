"use strict";

const hooks = require("../hooks");
const samples = require("../samples");

const TYPES = ["event.created", "event.updated"];

module.exports = {
  key: "event_changed",
  noun: "Event",
  display: {
    label: "Event Created or Updated",
    description:
      "Triggers when a calendar event is created or changed (by the Events Webhook, the dashboard or a CSV import).",
  },
  operation: {
    type: "hook",
    performSubscribe: hooks.subscribe(TYPES, "Zapier: Event Created or Updated"),
    performUnsubscribe: hooks.unsubscribe,
    perform: hooks.perform,
    performList: hooks.listNotifications(TYPES),
    sample: samples.event,
    outputFields: samples.eventOutputFields,
  },
};
