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

const leadOutputFields = [
  { key: "id", label: "Lead ID" },
  { key: "name", label: "Name" },
  { key: "email", label: "Email" },
  { key: "phone", label: "Phone" },
  { key: "company", label: "Company" },
  { key: "source", label: "Source" },
  { key: "stage", label: "Stage" },
  { key: "notes", label: "Notes" },
  { key: "conversation_id", label: "Conversation ID" },
  { key: "created_at", label: "Created at", type: "datetime" },
  { key: "updated_at", label: "Updated at", type: "datetime" },
  { key: "stage_changed_at", label: "Stage changed at", type: "datetime" },
];

const eventOutputFields = [
  { key: "id", label: "Event ID" },
  { key: "title", label: "Title" },
  { key: "starts_at", label: "Starts at", type: "datetime" },
  { key: "ends_at", label: "Ends at", type: "datetime" },
  { key: "description", label: "Description" },
  { key: "location", label: "Location" },
  { key: "url", label: "URL" },
  { key: "price", label: "Price" },
  { key: "recurring", label: "Recurring" },
  { key: "status", label: "Status" },
  { key: "next_occurrence_at", label: "Next occurrence at", type: "datetime" },
];

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

const conversationOutputFields = [
  { key: "id", label: "Conversation ID" },
  { key: "status", label: "Status" },
  { key: "visitor_name", label: "Visitor name" },
  { key: "visitor_email", label: "Visitor email" },
  { key: "lead_id", label: "Lead ID" },
  { key: "page_url", label: "Page URL" },
  { key: "referrer", label: "Referrer" },
  { key: "user_agent", label: "User agent" },
  { key: "locale", label: "Locale" },
  { key: "widget_id", label: "Widget ID" },
  { key: "started_at", label: "Started at", type: "datetime" },
  { key: "handoff_requested_at", label: "Handoff requested at", type: "datetime" },
  { key: "last_message_at", label: "Last message at", type: "datetime" },
  { key: "updated_at", label: "Updated at", type: "datetime" },
];

const messageOutputFields = [
  { key: "id", label: "Message ID" },
  { key: "conversation_id", label: "Conversation ID" },
  { key: "author", label: "Author" },
  { key: "author_name", label: "Author name" },
  { key: "text", label: "Text" },
  { key: "created_at", label: "Created at", type: "datetime" },
];

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
