"use strict";

const { apiUrl } = require("../api");
const samples = require("../samples");

/** POST /api/public/leads/{id}/stage; answers the lead in its new stage. */
const perform = async (z, bundle) => {
  const id = String(bundle.inputData.lead_id || "").trim();
  const response = await z.request({
    url: apiUrl(bundle, `/leads/${encodeURIComponent(id)}/stage`),
    method: "POST",
    body: { stage: bundle.inputData.stage },
  });
  return response.data;
};

module.exports = {
  key: "change_lead_stage",
  noun: "Lead",
  display: {
    label: "Change Lead Stage",
    description: "Moves a lead to another stage of the pipeline.",
  },
  operation: {
    inputFields: [
      {
        key: "lead_id",
        label: "Lead ID",
        required: true,
        type: "string",
        helpText: 'The lead\'s ID, such as `lead_3xQ8mZk2Lr7Tn1Vb5Hc9Wd` (from a trigger or "Create Lead").',
      },
      { key: "stage", label: "Stage", required: true, dynamic: "pipeline_stage.id.label" },
    ],
    perform,
    sample: { ...samples.lead, stage: "qualified" },
    outputFields: samples.leadOutputFields,
  },
};
