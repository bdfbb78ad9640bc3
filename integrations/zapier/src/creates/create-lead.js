"use strict";

const { apiCreate, filledText } = require("../api-create");
const samples = require("../samples");

const TEXT_FIELDS = ["name", "email", "phone", "company", "notes", "stage"];

/** POST /api/public/leads. An empty field is "not set"; the API requires a name, an email or a phone. */
module.exports = apiCreate({
  key: "create_lead",
  noun: "Lead",
  label: "Create Lead",
  description: "Creates a lead. Give at least a name, an email or a phone number.",
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
  request: (input) => {
    const body = { source: "zapier" };
    for (const field of TEXT_FIELDS) {
      const text = filledText(input[field]);
      if (text !== undefined) body[field] = text;
    }
    return { path: "/leads", body };
  },
  sample: { ...samples.lead, source: "zapier" },
  outputFields: samples.leadOutputFields,
});
