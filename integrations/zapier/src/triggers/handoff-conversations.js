"use strict";

const { apiUrl } = require("../api");
const samples = require("../samples");

const STATUSES = ["handoff_requested", "handoff_active"];
const LIMIT = 100;

/** "Ada (ada@example.com), waiting for a person": what a person recognises in a dropdown. */
const labelOf = (conversation) => {
  const who =
    [conversation.visitor_name, conversation.visitor_email && `(${conversation.visitor_email})`]
      .filter(Boolean)
      .join(" ") || "Visitor";
  const state = conversation.status === "handoff_requested" ? "waiting for a person" : "with a person";
  return `${who}, ${state}`;
};

/*
 * Hidden: feeds the "Conversation" dropdown of "Send Message to Conversation" with the conversations a
 * message can go to (waiting for a person, or already answered by one), most recently active first.
 */
module.exports = {
  key: "handoff_conversation",
  noun: "Conversation",
  display: {
    label: "Conversations in Handoff",
    description: "The conversations waiting for or talking with a person, for dropdowns.",
    hidden: true,
  },
  operation: {
    perform: async (z, bundle) => {
      const pages = await Promise.all(
        STATUSES.map((status) =>
          z.request({ url: apiUrl(bundle, "/conversations"), method: "GET", params: { status, limit: LIMIT } }),
        ),
      );
      const conversations = pages.flatMap((response) => response.data.data);
      conversations.sort((a, b) => (a.updated_at < b.updated_at ? 1 : a.updated_at > b.updated_at ? -1 : 0));
      return conversations.map((conversation) => ({ ...conversation, label: labelOf(conversation) }));
    },
    sample: { ...samples.conversation, label: "Ada (ada@example.com), waiting for a person" },
    outputFields: [
      { key: "id", label: "Conversation ID" },
      { key: "label", label: "Conversation" },
    ],
  },
};
