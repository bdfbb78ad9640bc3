"use strict";

const hooks = require("../hooks");
const samples = require("../samples");

module.exports = {
  key: "handoff_requested",
  noun: "Conversation",
  display: {
    label: "Handoff Requested",
    description: "Triggers when a visitor in the chat asks to talk to a person.",
  },
  operation: {
    type: "hook",
    performSubscribe: hooks.subscribe(["conversation.handoff_requested"], "Zapier: Handoff Requested"),
    performUnsubscribe: hooks.unsubscribe,
    perform: hooks.perform,
    // Sample data: the conversations waiting for a person now, newest first.
    performList: hooks.listConversations("handoff_requested"),
    sample: samples.conversation,
    outputFields: samples.conversationOutputFields,
  },
};
