"use strict";

const { apiCreate, filledText, pathId } = require("../api-create");
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

const explainRefusal = (response) => {
  const error = response.status === 409 && response.data && response.data.error;
  if (!error || error.code !== "conversation_not_in_handoff") return undefined;
  const detail = (error.details || [])[0] || {};
  return (
    NOT_IN_HANDOFF[detail.status] ||
    "The conversation is not waiting for or talking with a person, so the message was not sent."
  );
};

module.exports = apiCreate({
  key: "send_message",
  noun: "Message",
  label: "Send Message to Conversation",
  description: "Sends a message to a visitor who asked to talk to a person in the chat.",
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
  request: (input) => {
    const body = { text: input.text };
    const authorName = filledText(input.author_name);
    if (authorName !== undefined) body.author_name = authorName;
    return { path: `/conversations/${pathId(input.conversation_id)}/messages`, body };
  },
  explainRefusal,
  sample: samples.message,
  outputFields: samples.messageOutputFields,
});
