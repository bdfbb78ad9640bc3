"use strict";

const { apiUrl } = require("./api");

/** GET /api/public/zapier/me: which account and key this is; any valid key may call it. */
const test = async (z, bundle) => {
  const response = await z.request({ url: apiUrl(bundle, "/zapier/me"), method: "GET" });
  return response.data;
};

/** "Acme Ltd (Zapier key)": the account and the key's name, so several connections stay apart. */
const connectionLabel = (z, bundle) => {
  const me = bundle.inputData || {};
  const account = me.account && me.account.name;
  const key = me.key && (me.key.name || me.key.prefix);
  if (account && key) return `${account} (${key})`;
  return account || key || "";
};

module.exports = {
  type: "custom",
  fields: [
    {
      key: "base_url",
      label: "App URL",
      required: true,
      type: "string",
      default: "https://app.example.com",
      helpText:
        "The address you open the app at, for example `https://chat.yourcompany.com` (no path). " +
        "It must be https: your API key is sent with every request. Self-hosted instances use their own address.",
    },
    {
      key: "api_key",
      label: "API key",
      required: true,
      type: "password",
      helpText:
        "Create a key in the app under **Settings → API keys** (it starts with `ik_live_`). Give it the " +
        "`webhooks` scope for triggers and `read:leads` + `write:leads` for the lead actions.",
    },
  ],
  test,
  connectionLabel,
};
