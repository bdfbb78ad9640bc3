"use strict";

const { apiUrl, throwApiError } = require("../api");
const samples = require("../samples");

/*
 * POST /api/public/conversations/{id}/messages. The API takes messages only while a person was asked for
 * (handoff_requested) or is answering (handoff_active); its 409 conversation_not_in_handoff becomes a
 * message that says why and what to do, rather than the bare status.
 */

const NOT_IN_HANDOFF = {
  bot:
    "The visitor has not asked for a person in this conversation (the " +
    "assistant is answering), so the message was not sent.",
  closed:
    "This conversation is closed, so the message was not sent. The visitor can start a new conversation in the chat.",
};

const perform = async (z, bundle) => {
  const id = String(bundle.inputData.conversation_id || "").trim();
  const body = { text: bundle.inputData.text };
  const authorName = bundle.inputData.author_name;
  if (authorName !== undefined && authorName !== null && String(authorName).trim() !== "")
    body.author_name = String(authorName);
  const response = await z.request({
    url: apiUrl(bundle, `/conversations/${encodeURIComponent(id)}/messages`),
    method: "POST",
    body,
    skipThrowForStatus: true,
  });
  if (
    response.status === 409 &&
    response.data &&
    response.data.error &&
    response.data.error.code === "conversation_not_in_handoff"
  ) {
    const detail = (response.data.error.details || [])[0] || {};
    const message =
      NOT_IN_HANDOFF[detail.status] ||
      "The conversation is not waiting for or talking with a person, so the message was not sent.";
    throw new z.errors.Error(message, "conversation_not_in_handoff", 409);
  }
  if (response.status >= 400) throwApiError(z, response);
  return response.data;
};

module.exports = {
  key: "send_message",
  noun: "Message",
  display: {
    label: "Send Message to Conversation",
    description: "Sends a message to a visitor who asked to talk to a person in the chat.",
  },
  operation: {
    inputFields: [
      {
        key: "conversation_id",
        label: "Conversation",
        required: true,
        dynamic: "handoff_conversation.id.label",
        helpText:
          "A conversation waiting for or talking with a person; " +
          'or map the Conversation ID from the "Handoff Requested" trigger.',
      },
      {
        key: "text",
        label: "Message",
        required: true,
        type: "text",
        helpText: "Plain text, up to 4,000 characters. The visitor sees it in the chat within seconds.",
      },
      {
        key: "author_name",
        label: "Author name",
        type: "string",
        helpText: "The name shown above the message, such as your first name (up to 100 characters).",
      },
    ],
    perform,
    sample: samples.message,
    outputFields: samples.messageOutputFields,
  },
};
