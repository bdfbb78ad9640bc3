"use strict";

/* Sample objects and output labels, shaped as the API returns leads, calendar events, conversations and messages. */

const lead = {
  id: "lead_3xQ8mZk2Lr7Tn1Vb5Hc9Wd",
  name: "Ada Lovelace",
  email: "ada@example.com",
  phone: "+44 20 7946 0000",
  company: "Analytical Engines Ltd",
  source: "chat",
  stage: "new",
  notes: "Asked about the Pro plan.",
  metadata: {},
  conversation_id: null,
  created_at: "2026-03-02T09:15:00.000Z",
  updated_at: "2026-03-02T09:15:00.000Z",
  stage_changed_at: "2026-03-02T09:15:00.000Z",
};

const stageChange = {
  ...lead,
  stage: "qualified",
  previous_stage: "contacted",
  updated_at: "2026-03-04T14:02:10.000Z",
  stage_changed_at: "2026-03-04T14:02:10.000Z",
};

const event = {
  id: "0b6f2d2e-6a7c-4c3e-9a51-3f1d2b8c9e10",
  title: "Jazz night",
  starts_at: "2026-04-10T19:30:00.000Z",
  ends_at: "2026-04-10T22:00:00.000Z",
  description: "Live quartet.",
  location: "Main hall",
  url: "https://example.com/events/jazz-night",
  price: "15.00",
  recurring: "",
  status: "upcoming",
  next_occurrence_at: "2026-04-10T19:30:00.000Z",
  created_at: "2026-03-01T08:00:00.000Z",
  updated_at: "2026-03-01T08:00:00.000Z",
};

const conversation = {
  id: "conv_5hTq2Wm9ZkR4xN7bLc3Vd8",
  status: "handoff_requested",
  widget_id: "wid_8PqR2sT4uV6wX8yZ0aB2cD",
  lead_id: null,
  visitor_name: "Ada",
  visitor_email: "ada@example.com",
  started_at: "2026-03-02T09:10:00.000Z",
  page_url: "https://example.com/events",
  referrer: "https://www.google.com/",
  user_agent: "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X)",
  locale: "en-GB",
  handoff_requested_at: "2026-03-02T09:12:30.000Z",
  closed_at: null,
  closed_reason: null,
  last_message_at: "2026-03-02T09:12:30.000Z",
  created_at: "2026-03-02T09:10:00.000Z",
  updated_at: "2026-03-02T09:12:30.000Z",
};

const message = {
  id: "msg_2bN7cQ4dR9eS1fT6gU3hV8",
  conversation_id: conversation.id,
  author: "agent",
  author_name: "Grace",
  text: "Hi Ada, Grace here. Yes, there are still seats on Friday.",
  created_at: "2026-03-02T09:14:05.000Z",
};

/*
 * Zapier's labels for the fields of each object, named by one rule: the key in words ("visitor_name" is
 * "Visitor name", "page_url" is "Page URL"), `*_at` fields typed as datetimes, and `id` named after the object.
 */
function outputFields(idLabel, keys) {
  const words = (key) => key.split("_").map((word) => (word === "id" || word === "url" ? word.toUpperCase() : word));
  const label = (key) => {
    const [first, ...rest] = words(key);
    return [first.charAt(0).toUpperCase() + first.slice(1), ...rest].join(" ");
  };
  return [
    { key: "id", label: idLabel },
    ...keys
      .split(" ")
      .map((key) => (key.endsWith("_at") ? { key, label: label(key), type: "datetime" } : { key, label: label(key) })),
  ];
}

const leadOutputFields = outputFields(
  "Lead ID",
  "name email phone company source stage notes conversation_id created_at updated_at stage_changed_at",
);
const eventOutputFields = outputFields(
  "Event ID",
  "title starts_at ends_at description location url price recurring status next_occurrence_at",
);
const conversationOutputFields = outputFields(
  "Conversation ID",
  "status visitor_name visitor_email lead_id page_url referrer user_agent locale widget_id started_at " +
    "handoff_requested_at last_message_at updated_at",
);
const messageOutputFields = outputFields("Message ID", "conversation_id author author_name text created_at");

module.exports = {
  lead,
  stageChange,
  event,
  conversation,
  message,
  leadOutputFields,
  eventOutputFields,
  conversationOutputFields,
  messageOutputFields,
};
