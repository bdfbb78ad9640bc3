import crypto from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { closeDatabase, conversationIn } from "./conversations.ts";
import { api, App, appTester, bundle, delivered, failureOf } from "./support.mjs";

const handoffRequested = App.triggers.handoff_requested.operation;
const conversationsDropdown = App.triggers.handoff_conversation.operation.perform;
const sendMessage = App.creates.send_message.operation.perform;

afterAll(async () => {
  await closeDatabase();
});

describe("Handoff Requested", () => {
  it("lists the conversations waiting for a person, newest request first, each with its id", async () => {
    const older = await conversationIn("handoff_requested");
    const withAssistant = await conversationIn("bot");
    const newer = await conversationIn("handoff_requested");
    const results = await appTester(handoffRequested.performList, bundle());
    expect(results.slice(0, 2).map((conversation) => conversation.id)).toEqual([newer.id, older.id]);
    expect(results.map((conversation) => conversation.id)).not.toContain(withAssistant.id);
    expect(
      results.every(
        (conversation) => conversation.status === "handoff_requested" && conversation.id.startsWith("conv_"),
      ),
    ).toBe(true);
    // Exactly what the API answers for the conversation.
    expect(results[0]).toEqual((await api(`/conversations/${newer.id}`)).body);
  });

  it("triggers with the conversation of a delivered conversation.handoff_requested notification", async () => {
    const conversation = await conversationIn("handoff_requested");
    const data = (await api(`/conversations/${conversation.id}`)).body;
    const notification = {
      id: `whmsg_${crypto.randomBytes(8).toString("hex")}`,
      type: "conversation.handoff_requested",
      created_at: new Date().toISOString(),
      data,
    };
    const results = await appTester(handoffRequested.perform, bundle(delivered(notification)));
    expect(results).toEqual([data]);
  });
});

describe("the Conversation dropdown", () => {
  it("offers conversations waiting for or talking with a person, labelled for people, and no others", async () => {
    const waiting = await conversationIn("handoff_requested");
    const answered = await conversationIn("handoff_requested");
    await appTester(sendMessage, bundle({ inputData: { conversation_id: answered.id, text: "Hello!" } }));
    const closed = await conversationIn("closed");
    const withAssistant = await conversationIn("bot");
    const choices = await appTester(conversationsDropdown, bundle());
    const byId = new Map(choices.map((choice) => [choice.id, choice.label]));
    expect(byId.get(waiting.id)).toBe("Visitor, waiting for a person");
    expect(byId.get(answered.id)).toBe("Visitor, with a person");
    expect(byId.has(closed.id)).toBe(false);
    expect(byId.has(withAssistant.id)).toBe(false);
    // Most recently active first: the answered one changed last.
    expect(choices[0].id).toBe(answered.id);
  });

  it("is what the action's Conversation field reads", () => {
    const field = App.creates.send_message.operation.inputFields.find((input) => input.key === "conversation_id");
    expect(field.dynamic).toBe("handoff_conversation.id.label");
  });
});

describe("Send Message to Conversation", () => {
  it("sends the message as the agent, and the conversation becomes handoff_active", async () => {
    const conversation = await conversationIn("handoff_requested");
    const message = await appTester(
      sendMessage,
      bundle({
        inputData: {
          conversation_id: conversation.id,
          text: "Hi, Grace here. <b>Seats</b> are left.",
          author_name: "Grace",
        },
      }),
    );
    expect(message).toMatchObject({
      conversation_id: conversation.id,
      author: "agent",
      author_name: "Grace",
      text: "Hi, Grace here. <b>Seats</b> are left.",
    });
    expect(message.id).toMatch(/^msg_/);
    const messages = await api(`/conversations/${conversation.id}/messages?limit=100`);
    expect(messages.body.data.at(-1)).toEqual(message);
    expect((await api(`/conversations/${conversation.id}`)).body.status).toBe("handoff_active");
  });

  it("leaves the author name out when it is empty", async () => {
    const conversation = await conversationIn("handoff_requested");
    const message = await appTester(
      sendMessage,
      bundle({ inputData: { conversation_id: conversation.id, text: "No name", author_name: "  " } }),
    );
    expect(message.author_name).toBeNull();
  });

  it("explains that the visitor has not asked for a person while the assistant still answers", async () => {
    const conversation = await conversationIn("bot");
    const error = await failureOf(
      appTester(sendMessage, bundle({ inputData: { conversation_id: conversation.id, text: "Hello?" } })),
    );
    expect(error.name).toBe("AppError");
    const { code, status, message } = JSON.parse(error.message);
    expect({ code, status }).toEqual({ code: "conversation_not_in_handoff", status: 409 });
    expect(message).toMatch(/has not asked for a person/);
    const messages = await api(`/conversations/${conversation.id}/messages?limit=100`);
    expect(messages.body.data.filter((m) => m.author === "agent")).toEqual([]);
  });

  it("explains that a closed conversation takes no message", async () => {
    const conversation = await conversationIn("closed");
    const error = await failureOf(
      appTester(sendMessage, bundle({ inputData: { conversation_id: conversation.id, text: "Hello?" } })),
    );
    const { code, status, message } = JSON.parse(error.message);
    expect({ code, status }).toEqual({ code: "conversation_not_in_handoff", status: 409 });
    expect(message).toMatch(/is closed/);
  });

  it("reports 404 not_found for a conversation that does not exist", async () => {
    const error = await failureOf(
      appTester(sendMessage, bundle({ inputData: { conversation_id: "conv_doesnotexist0000000000", text: "Hi" } })),
    );
    expect(JSON.parse(error.message)).toMatchObject({ code: "not_found", status: 404 });
  });

  it("names the text field when the message is too long", async () => {
    const conversation = await conversationIn("handoff_requested");
    const error = await failureOf(
      appTester(sendMessage, bundle({ inputData: { conversation_id: conversation.id, text: "x".repeat(4001) } })),
    );
    const { code, status, message } = JSON.parse(error.message);
    expect({ code, status }).toEqual({ code: "invalid_request", status: 400 });
    expect(message).toMatch(/text: /);
  });
});
