"use strict";

const hooks = require("../hooks");
const samples = require("../samples");

module.exports = {
  key: "new_lead",
  noun: "Lead",
  display: {
    label: "New Lead",
    description: "Triggers when a lead is created (from the chat, the API, the dashboard or an import).",
  },
  operation: {
    type: "hook",
    performSubscribe: hooks.subscribe(["lead.created"], "Zapier: New Lead"),
    performUnsubscribe: hooks.unsubscribe,
    perform: hooks.perform,
    performList: hooks.listLeads,
    sample: samples.lead,
    outputFields: samples.leadOutputFields,
  },
};
