import { beforeAll, describe, expect, it } from "vitest";
import type { TestAccount } from "../../support/factories";
import {
  accountWithWebhooksKey,
  api,
  errorOf,
  subscriptionCount,
  fakeResolverForTests,
  withLoopbackTargets,
} from "./client";

let owner: TestAccount;
let secret: string;
fakeResolverForTests();
beforeAll(async () => ({ owner, key: secret } = await accountWithWebhooksKey("Subscriptions Bad Input")));

const LOOPBACK = ["http://127.0.0.1", "http://[::1]"];

// A subscription to lead.created refused for its url.
const BAD_URLS: [what: string, url: string, reason: string][] = [
  ["loopback IPv4", "http://127.0.0.1", "private_address"],
  ["loopback IPv6", "http://[::1]", "private_address"],
  ["cloud metadata (link-local)", "http://169.254.169.254", "private_address"],
  ["private IPv4", "http://10.0.0.1", "private_address"],
  ["a name resolving to a private address", "https://intranet.example.test/hook", "private_address"],
  ["a name with one private address among public ones", "https://split.example.test/hook", "private_address"],
  ["loopback in decimal", "http://2130706433/", "private_address"],
  ["loopback in hex", "https://0x7f.1/", "private_address"],
  ["IPv4-mapped private", "https://[::ffff:10.0.0.1]/", "private_address"],
  ["ftp", "ftp://hooks.example.test/", "scheme_not_allowed"],
  ["plain http to a public host", "http://hooks.example.test/", "scheme_not_allowed"],
  ["a 3,000-character URL", `https://hooks.example.test/${"a".repeat(3_000 - 27)}`, "url_too_long"],
  ["credentials in the URL", "https://me:pw@hooks.example.test/", "credentials_not_allowed"],
  ["an unresolvable host", "https://nowhere.example.test/", "private_address"],
  ["a public address on the SSH port", "https://8.8.8.8:22/x", "port_not_allowed"],
  ["a host name on a privileged port", "https://hooks.example.test:8/hook", "port_not_allowed"],
  ["not a URL", "hooks.example.test", "invalid_url"],
];

type BadSubscription = [what: string, body: object, field: string, reason: string];
const BAD_SUBSCRIPTIONS: BadSubscription[] = [
  ...BAD_URLS.map(([what, url, reason]): BadSubscription => [
    what,
    { url, event_types: ["lead.created"] },
    "url",
    reason,
  ]),
  [
    "a legacy target_url that is private",
    { target_url: "http://10.0.0.1/", event: "lead.created" },
    "target_url",
    "private_address",
  ],
  [
    "an unknown event type",
    { url: "https://hooks.example.test/", event_types: ["lead.created", "lead.exploded"] },
    "event_types.1",
    "unknown_event_type",
  ],
  [
    "an unknown legacy event",
    { target_url: "https://hooks.example.test/", event: "lead.exploded" },
    "event",
    "unknown_event_type",
  ],
  ["an empty list", { url: "https://hooks.example.test/", event_types: [] }, "event_types", "empty_event_types"],
  ["no event types", { url: "https://hooks.example.test/" }, "event_types", "required"],
  ["no URL", { event_types: ["lead.created"] }, "url", "required"],
];

describe("POST /api/public/webhooks with bad input", () => {
  it.each(BAD_SUBSCRIPTIONS)(
    "refuses %s: 400 invalid_request naming the field and the reason, nothing stored",
    async (_what, body, field, reason) => {
      const response = await api.create(secret, body);
      expect(response.status).toBe(400);
      const error = await errorOf(response);
      expect(error.code).toBe("invalid_request");
      expect(error.details[0]).toMatchObject({ field, reason, message: expect.any(String) });
      expect(await subscriptionCount(owner.accountId)).toBe(0);
    },
  );

  it("answers a host name that does not resolve exactly as one that resolves to a private address", async () => {
    const detailOf = async (url: string) => {
      const response = await api.create(secret, { url, event_types: ["lead.created"] });
      return { status: response.status, detail: (await errorOf(response)).details[0] };
    };
    const hidden = await detailOf("https://nowhere.example.test/hook");
    const internal = await detailOf("https://intranet.example.test/hook");
    const sameWords = String(internal.detail.message).replace("intranet.", "nowhere.");
    expect(hidden).toEqual({ ...internal, detail: { ...internal.detail, message: sameWords } });
  });

  it("refuses wrong types with per-field details", async () => {
    const response = await api.create(secret, { url: 42, event_types: "lead.created", description: "x".repeat(201) });
    expect(response.status).toBe(400);
    const fields = (await errorOf(response)).details.map((detail) => detail.field);
    expect(fields).toEqual(expect.arrayContaining(["url", "event_types", "description"]));
    expect(await subscriptionCount(owner.accountId)).toBe(0);
  });

  it("refuses a body that is not JSON", async () => {
    const response = await api.create(secret, "{nope");
    expect(response.status).toBe(400);
    expect((await errorOf(response)).code).toBe("invalid_json");
  });

  it("with OUTBOUND_ALLOW_LOOPBACK_TARGETS=1 accepts the loopback targets, and only those", async () => {
    await withLoopbackTargets(async () => {
      for (const [what, body, , reason] of BAD_SUBSCRIPTIONS) {
        const response = await api.create(secret, body);
        const loopback = LOOPBACK.includes((body as { url?: string }).url ?? "") || what.startsWith("loopback in");
        expect({ what, status: response.status }).toEqual({ what, status: loopback ? 201 : 400 });
        if (!loopback) expect((await errorOf(response)).details[0].reason).toBe(reason);
      }
    });
    expect(await subscriptionCount(owner.accountId)).toBe(4);
    const stored = await api.list(secret);
    expect((await stored.json()).data.map((item: { url: string }) => item.url).sort()).toEqual([
      "http://127.0.0.1/",
      "http://127.0.0.1/",
      "http://[::1]/",
      "https://127.0.0.1/",
    ]);
  });

  it("PATCH refuses a private URL and keeps the stored one", async () => {
    const created = await (
      await api.create(secret, { url: "https://hooks.example.test/a", event_types: ["*"] })
    ).json();
    const response = await api.patch(secret, created.id, { url: "https://metadata.example.test/" });
    expect(response.status).toBe(400);
    expect((await errorOf(response)).details[0]).toMatchObject({ field: "url", reason: "private_address" });
    expect((await (await api.get(secret, created.id)).json()).url).toBe("https://hooks.example.test/a");
  });

  it("PATCH refuses an unknown event type, an empty list and an unknown status", async () => {
    const created = await (
      await api.create(secret, { url: "https://hooks.example.test/b", event_types: ["*"] })
    ).json();
    for (const [body, field] of [
      [{ event_types: ["nope"] }, "event_types.0"],
      [{ event_types: [] }, "event_types"],
      [{ status: "paused" }, "status"],
    ] as const) {
      const response = await api.patch(secret, created.id, body);
      expect(response.status).toBe(400);
      expect((await errorOf(response)).details[0].field).toBe(field);
    }
  });

  it("GET /api/public/webhook-events refuses an unknown type and a foreign cursor", async () => {
    const unknownType = await api.events(secret, "?type=lead.exploded");
    expect(unknownType.status).toBe(400);
    expect((await errorOf(unknownType)).details[0].field).toBe("type");
    const badCursor = await api.events(secret, "?cursor=bm9wZQ");
    expect(badCursor.status).toBe(400);
    expect((await errorOf(badCursor)).details[0].field).toBe("cursor");
  });
});
