import fs from "node:fs";
import path from "node:path";
import vm from "node:vm";
import zlib from "node:zlib";
import { describe, expect, it } from "vitest";

/*
 * public/widget.js runs on other people's websites: small, no globals, one launcher however often it is
 * included, and a frame that opens and closes as a dialog should. Run here in a VM against a minimal
 * stand-in DOM that records what the script does (the end-to-end tests drive it in a real browser).
 */

const SOURCE = fs.readFileSync(path.join(import.meta.dirname, "../../public/widget.js"), "utf8");
const WIDGET_ID = "wid_AbCdEfGhIjKlMnOpQrStUv";

type Listener = (event: Record<string, unknown>) => void;

class FakeElement {
  attributes = new Map<string, string>();
  children: FakeElement[] = [];
  listeners = new Map<string, Listener[]>();
  style: Record<string, string> = {};
  classes = new Set<string>();
  classList = { add: (name: string) => this.classes.add(name), remove: (name: string) => this.classes.delete(name) };
  shadow: FakeElement | null = null;
  hidden = false;
  innerHTML = "";
  textContent = "";
  className = "";
  type = "";
  title = "";
  src = "";
  contentWindow = { postMessage: () => {} };
  constructor(
    readonly tag: string,
    private readonly world: World,
  ) {}
  setAttribute(name: string, value: string) {
    this.attributes.set(name, String(value));
  }
  getAttribute(name: string) {
    return this.attributes.get(name) ?? null;
  }
  hasAttribute(name: string) {
    return this.attributes.has(name);
  }
  appendChild(child: FakeElement) {
    this.children.push(child);
    return child;
  }
  insertBefore(child: FakeElement) {
    this.children.unshift(child);
    return child;
  }
  addEventListener(type: string, listener: Listener) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  attachShadow() {
    this.shadow = new FakeElement("#shadow", this.world);
    return this.shadow;
  }
  focus() {
    this.world.focused = this;
  }
  fire(type: string, event: Record<string, unknown> = {}) {
    for (const listener of this.listeners.get(type) ?? []) listener(event);
  }
  all(): FakeElement[] {
    return [this, ...(this.shadow?.all() ?? []), ...this.children.flatMap((child) => child.all())];
  }
}

type World = { focused: FakeElement | null };

function page(scriptSrc = "https://chat.example.com/widget.js") {
  const world: World = { focused: null };
  const body = new FakeElement("body", world);
  const documentElement = new FakeElement("html", world);
  const docListeners = new FakeElement("#document", world);
  const windowListeners = new FakeElement("#window", world);
  const script = new FakeElement("script", world);
  script.src = scriptSrc;
  script.setAttribute("data-widget", WIDGET_ID);
  const document = {
    currentScript: script,
    documentElement,
    body,
    referrer: "https://search.example/?q=events",
    createElement: (tag: string) => new FakeElement(tag, world),
    querySelector: () => script,
    addEventListener: docListeners.addEventListener.bind(docListeners),
  };
  const context = vm.createContext({
    document,
    location: {
      href: "https://shop.example.com/events?month=may#ticket=1",
      origin: "https://shop.example.com",
      pathname: "/events",
    },
    URL,
    requestAnimationFrame: (callback: () => void) => callback(),
    CSSStyleSheet: undefined,
  });
  context.window = { addEventListener: windowListeners.addEventListener.bind(windowListeners) };
  const globalsBefore = new Set(Object.keys(context));
  const run = () => vm.runInContext(SOURCE, context);
  const find = (predicate: (element: FakeElement) => boolean) => body.all().filter(predicate);
  const launcher = () => find((element) => element.getAttribute("aria-label") === "Open chat")[0];
  const frame = () => find((element) => element.tag === "iframe")[0];
  const panel = () => find((element) => element.getAttribute("role") === "dialog")[0];
  /** Runs the script and clicks its launcher, as a visitor opens the chat. */
  const open = () => {
    run();
    launcher()!.fire("click");
  };
  return {
    world,
    body,
    docListeners,
    windowListeners,
    context,
    globalsBefore,
    run,
    find,
    launcher,
    frame,
    panel,
    open,
  };
}

describe("widget.js", () => {
  it("stays under 10 KB gzipped", () => {
    expect(zlib.gzipSync(SOURCE, { level: 9 }).byteLength).toBeLessThan(10 * 1024);
  });

  it('adds one launcher named "Open chat" however often it is included, and defines no globals', () => {
    const browser = page();
    browser.run();
    browser.run();
    const launchers = browser.find((element) => element.getAttribute("aria-label") === "Open chat");
    expect(launchers).toHaveLength(1);
    expect(browser.body.children).toHaveLength(1);
    expect(Object.keys(browser.context).filter((name) => !browser.globalsBefore.has(name))).toEqual([]);
    // Nothing is loaded from the chat until the visitor opens it.
    expect(browser.find((element) => element.tag === "iframe")).toEqual([]);
  });

  it("opens the chat with the origin and path of the host page and its referrer, and closes on Escape", () => {
    const browser = page();
    browser.open();
    const launcher = browser.launcher();
    const url = new URL(browser.frame()!.src);
    expect(url.origin + url.pathname).toBe(`https://chat.example.com/chat/${WIDGET_ID}`);
    // The query and fragment of either page may carry tokens or personal data: neither leaves the host page.
    expect(Object.fromEntries(url.searchParams)).toEqual({
      embed: "1",
      page_url: "https://shop.example.com/events",
      referrer: "https://search.example/",
    });
    const panel = browser.panel();
    expect(panel!.hidden).toBe(false);
    expect(launcher!.style.display).toBe("none");

    browser.docListeners.fire("keydown", { key: "Escape" });
    expect(panel!.hidden).toBe(true);
    expect(browser.world.focused).toBe(launcher);
  });

  it("closes on the frame's request only when it comes from the chat's own frame and origin", () => {
    const browser = page();
    browser.open();
    const [frame, panel] = [browser.frame(), browser.panel()];
    const request = { data: { type: "chat-widget:close" } };
    browser.windowListeners.fire("message", {
      ...request,
      source: frame!.contentWindow,
      origin: "https://evil.example",
    });
    browser.windowListeners.fire("message", { ...request, source: {}, origin: "https://chat.example.com" });
    expect(panel!.hidden).toBe(false);
    browser.windowListeners.fire("message", {
      ...request,
      source: frame!.contentWindow,
      origin: "https://chat.example.com",
    });
    expect(panel!.hidden).toBe(true);
  });

  it("sends an empty referrer when there is none or it is not an http(s) page", () => {
    for (const referrer of ["", "android-app://com.example.mail/", "not a url"]) {
      const browser = page();
      browser.context.document.referrer = referrer;
      browser.open();
      expect(new URL(browser.frame()!.src).searchParams.get("referrer")).toBe("");
    }
  });

  it("does nothing without a valid data-widget", () => {
    const browser = page();
    browser.context.document.currentScript.setAttribute("data-widget", "wid_<script>");
    browser.run();
    expect(browser.body.children).toEqual([]);
  });
});
