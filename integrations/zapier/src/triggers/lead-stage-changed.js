"use strict";

const hooks = require("../hooks");
const samples = require("../samples");

module.exports = {
  key: "lead_stage_changed",
  noun: "Lead",
  display: {
    label: "Lead Stage Changed",
    description: "Triggers when a lead moves to another stage of the pipeline.",
  },
  operation: {
    type: "hook",
    performSubscribe: hooks.subscribe(["lead.stage_changed"], "Zapier: Lead Stage Changed"),
    performUnsubscribe: hooks.unsubscribe,
    perform: hooks.perform,
    performList: hooks.listNotifications(["lead.stage_changed"]),
    sample: samples.stageChange,
    outputFields: [...samples.leadOutputFields, { key: "previous_stage", label: "Previous stage" }],
  },
};
