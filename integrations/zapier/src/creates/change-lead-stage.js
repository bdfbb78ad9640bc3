"use strict";

const { apiCreate, pathId } = require("../api-create");
const samples = require("../samples");

/** POST /api/public/leads/{id}/stage; answers the lead in its new stage. */
module.exports = apiCreate({
  key: "change_lead_stage",
  noun: "Lead",
  label: "Change Lead Stage",
  description: "Moves a lead to another stage of the pipeline.",
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
  request: (input) => ({ path: `/leads/${pathId(input.lead_id)}/stage`, body: { stage: input.stage } }),
  sample: { ...samples.lead, stage: "qualified" },
  outputFields: samples.leadOutputFields,
});
