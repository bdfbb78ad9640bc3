"use strict";

/*
 * The app's address from the connection. The API key crosses the network with every request, so the
 * address must be https; plain http is allowed only for this machine (localhost, 127.0.0.1, [::1]), where
 * nothing leaves the host: local development and the integration's own tests.
 */

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

class BaseUrlError extends Error {
  constructor(message) {
    super(message);
    this.name = "BaseUrlError";
    this.code = "invalid_base_url";
  }
}

/** Trimmed, https:// when no scheme was typed, no trailing slash; throws BaseUrlError when not allowed. */
const parseBaseUrl = (value) => {
  const raw = String(value || "").trim();
  if (!raw) throw new BaseUrlError("The connection has no App URL. Reconnect and enter the address of your app.");
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(raw) ? raw : `https://${raw}`;
  let url;
  try {
    url = new URL(withScheme);
  } catch {
    throw new BaseUrlError(`The App URL "${raw}" is not a web address. Enter it as https://your-app.example.com.`);
  }
  const loopback = LOOPBACK_HOSTS.has(url.hostname.toLowerCase());
  if (url.protocol !== "https:" && !(url.protocol === "http:" && loopback)) {
    throw new BaseUrlError(
      `The App URL must start with https:// (got "${raw}"): your API key is sent with every request and ` +
        "must not cross the network unencrypted. Plain http:// is accepted only for localhost, 127.0.0.1 and [::1].",
    );
  }
  return withScheme.replace(/\/+$/, "");
};

module.exports = { parseBaseUrl, BaseUrlError };
