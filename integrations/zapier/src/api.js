"use strict";

const { parseBaseUrl } = require("./base-url");

/*
 * How the integration talks to the app's public API: the base URL from the connection, the bearer key
 * on every request, and the API's error body ({"ok": false, "error": {"code", "message", "details"}})
 * turned into errors Zapier understands (docs/leads-api.md, "Rate limit"; docs/api-keys.md).
 */

/** The app's address from the connection (src/base-url.js): https, or http on this machine only. */
const baseUrl = (bundle) => parseBaseUrl(bundle.authData && bundle.authData.base_url);

const apiUrl = (bundle, path) => `${baseUrl(bundle)}/api/public${path}`;

const addApiKey = (request, z, bundle) => {
  const key = bundle.authData && bundle.authData.api_key;
  if (key) {
    request.headers = request.headers || {};
    request.headers.Authorization = `Bearer ${String(key).trim()}`;
  }
  // Our afterResponse maps 429 itself, so the message can carry the API's words and its Retry-After.
  request.throwForThrottlingEarly = false;
  return request;
};

/** The API's `error` object from an error answer, or null when the body is not the API's (a proxy's page). */
const apiErrorOf = (response) => {
  try {
    const body = response.data !== undefined ? response.data : JSON.parse(response.content);
    return body && typeof body.error === "object" && body.error ? body.error : null;
  } catch {
    return null;
  }
};

/** Seconds from Retry-After (delta-seconds or an HTTP date), or null when absent or unreadable. */
const retryAfterSeconds = (response) => {
  const header = response.headers && response.headers.get("retry-after");
  if (!header) return null;
  if (/^\d+$/.test(header.trim())) return Number(header.trim());
  const date = Date.parse(header);
  return Number.isNaN(date) ? null : Math.max(0, Math.ceil((date - Date.now()) / 1000));
};

/** The error Zapier should see for an API error answer (throws; never returns). */
const throwApiError = (z, response) => {
  const error = apiErrorOf(response);
  const code = (error && error.code) || `http_${response.status}`;
  const message = (error && error.message) || `The app answered HTTP ${response.status}.`;
  if (response.status === 401) {
    throw new z.errors.ExpiredAuthError(`The API key was refused (${message}). Reconnect with a valid key.`);
  }
  if (response.status === 429) {
    const delay = retryAfterSeconds(response);
    throw new z.errors.ThrottledError(`Rate limit reached: ${message}`, delay === null ? undefined : delay);
  }
  const details = error && Array.isArray(error.details) ? error.details : [];
  const fields = details
    .map((detail) =>
      detail && detail.field ? `${detail.field}: ${detail.message || detail.reason || "invalid"}` : null,
    )
    .filter(Boolean);
  throw new z.errors.Error(fields.length ? `${message} (${fields.join("; ")})` : message, code, response.status);
};

/**
 * 401 and 429 always become ExpiredAuthError and ThrottledError; other 4xx/5xx become a z.errors.Error
 * with the API's message and code, unless the request asked to see the answer (skipThrowForStatus).
 */
const handleErrors = (response, z) => {
  if (response.status === 401 || response.status === 429) throwApiError(z, response);
  if (response.status >= 400 && !response.skipThrowForStatus) throwApiError(z, response);
  return response;
};

module.exports = { baseUrl, apiUrl, addApiKey, handleErrors, throwApiError, retryAfterSeconds };
