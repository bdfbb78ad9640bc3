import { NextRequest } from "next/server";
import { describe, expect, it } from "vitest";
import { saveWidgetSettings } from "@/lib/conversations/settings";
import { getOrCreateWidget } from "@/lib/conversations/widget";
import { createRequestListener } from "@/lib/server/request-listener";
import { proxy } from "@/proxy";
import { createAccount } from "../../support/factories";
import { listen, send } from "../../support/http-server";

/*
 * Only the widget's allowed origins (and the app itself) may frame its chat page; every other page stays unframeable.
 */

const frameAncestorsOf = async (path: string) => {
  const csp =
    (await proxy(new NextRequest(`http://localhost:3000${path}`))).headers.get("Content-Security-Policy") ?? "";
  expect(csp).toMatch(/script-src 'self' 'nonce-[^']+' 'strict-dynamic'/);
  return /frame-ancestors ([^;]+)/.exec(csp)?.[1];
};

describe("framing the chat page", () => {
  it("lists exactly the widget's allowed origins in frame-ancestors, and keeps 'none' everywhere else", async () => {
    const { accountId } = await createAccount();
    const widget = await getOrCreateWidget(accountId);
    expect(await frameAncestorsOf(`/chat/${widget.id}`)).toBe("'self'");

    await saveWidgetSettings(
      { accountId, actorUserId: null },
      {
        assistantName: widget.assistantName,
        greeting: widget.greeting,
        allowedOrigins: "https://shop.example.com\nhttp://localhost:8080",
      },
    );
    expect(await frameAncestorsOf(`/chat/${widget.id}?embed=1&page_url=https%3A%2F%2Fshop.example.com%2F`)).toBe(
      "'self' https://shop.example.com http://localhost:8080",
    );

    for (const path of [
      "/sign-in",
      "/sign-up",
      "/chat/wid_0000000000000000000000",
      "/chat/not-a-widget",
      `/chat/${widget.id}/more`,
      "/chat/%E0%A4%A",
    ]) {
      expect(await frameAncestorsOf(path), path).toBe("'none'");
    }
  });

  it("sends no X-Frame-Options from the production server for the chat page, and DENY for the others", async () => {
    const listener = createRequestListener({ nextHandler: (_req, res) => res.end("page"), routes: [], env: {} });
    const server = await listen(listener);
    try {
      expect((await send(server.port, { path: "/chat/wid_abc?embed=1" })).headers["x-frame-options"]).toBeUndefined();
      for (const path of ["/sign-in", "/", "/api/chat/wid_abc/conversations", "/chatroom"]) {
        expect((await send(server.port, { path })).headers["x-frame-options"], path).toBe("DENY");
      }
    } finally {
      await server.close();
    }
  });
});
