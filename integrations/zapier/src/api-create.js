"use strict";

const { apiUrl, throwApiError } = require("./api");

/*
 * The integration's actions (Zapier "creates") all POST what the user entered to one resource of the
 * public API and answer the API's JSON as the step's output. This builds one from what differs: the
 * request it sends and, optionally, an explanation for an error answer the API's own words would leave
 * unclear to someone building a Zap.
 */

/** An optional field's text, or undefined when the user left it empty (Zapier sends "", null or nothing). */
const filledText = (value) =>
  value === undefined || value === null || String(value).trim() === "" ? undefined : String(value);

/** An ID mapped from an earlier step, ready for a URL path. */
const pathId = (value) => encodeURIComponent(String(value || "").trim());

/**
 * `request(inputData)` gives `{ path, body }` (the path below /api/public). `explainRefusal(response)` may
 * return a message for an error answer; the action then fails with it and the API's code and status,
 * and any other error answer fails as api.js words it.
 */
function apiCreate({ key, noun, label, description, inputFields, request, explainRefusal, sample, outputFields }) {
  const perform = async (z, bundle) => {
    const { path, body } = request(bundle.inputData);
    const response = await z.request({
      url: apiUrl(bundle, path),
      method: "POST",
      body,
      skipThrowForStatus: Boolean(explainRefusal),
    });
    if (explainRefusal && response.status >= 400) {
      const message = explainRefusal(response);
      if (message) throw new z.errors.Error(message, response.data.error.code, response.status);
      throwApiError(z, response);
    }
    return response.data;
  };
  return {
    key,
    noun,
    display: { label, description },
    operation: { inputFields, perform, sample, outputFields },
  };
}

module.exports = { apiCreate, filledText, pathId };
