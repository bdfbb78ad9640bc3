"use strict";

const { apiUrl } = require("../api");

/* Hidden: feeds the "Stage" dropdowns of the lead actions from GET /api/public/pipeline (in order). */
module.exports = {
  key: "pipeline_stage",
  noun: "Stage",
  display: {
    label: "Pipeline Stages",
    description: "The stages of the pipeline, for dropdowns.",
    hidden: true,
  },
  operation: {
    perform: async (z, bundle) => {
      const response = await z.request({ url: apiUrl(bundle, "/pipeline"), method: "GET" });
      return response.data.data.map((stage) => ({
        id: stage.key || stage.id,
        label: stage.label,
        position: stage.position,
      }));
    },
    sample: { id: "new", label: "New", position: 0 },
    outputFields: [
      { key: "id", label: "Stage key" },
      { key: "label", label: "Stage" },
    ],
  },
};
