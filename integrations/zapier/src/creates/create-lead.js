"use strict";

const { apiUrl } = require("../api");
const samples = require("../samples");

const TEXT_FIELDS = ["name", "email", "phone", "company", "notes", "stage"];

/** POST /api/public/leads. An empty field is "not set"; the API requires a name, an email or a phone. */
const perform = async (z, bundle) => {
  const body = { source: "zapier" };
  for (const field of TEXT_FIELDS) {
    const value = bundle.inputData[field];
    if (value !== undefined && value !== null && String(value).trim() !== "") body[field] = String(value);
  }
  const response = await z.request({ url: apiUrl(bundle, "/leads"), method: "POST", body });
  return response.data;
};

module.exports = {
  key: "create_lead",
  noun: "Lead",
  display: {
    label: "Create Lead",
    description: "Creates a lead. Give at least a name, an email or a phone number.",
  },
  operation: {
    inputFields: [
      { key: "name", label: "Name", type: "string" },
      {
        key: "email",
        label: "Email",
        type: "string",
        helpText: "Unique within your account: an existing email is refused.",
      },
      { key: "phone", label: "Phone", type: "string" },
      { key: "company", label: "Company", type: "string" },
      { key: "notes", label: "Notes", type: "text" },
      {
        key: "stage",
        label: "Stage",
        dynamic: "pipeline_stage.id.label",
        helpText: "Leave empty for the first stage of the pipeline.",
      },
    ],
    perform,
    sample: { ...samples.lead, source: "zapier" },
    outputFields: samples.leadOutputFields,
  },
};
