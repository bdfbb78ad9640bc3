"use strict";

const { version: platformVersion } = require("zapier-platform-core");
const { version } = require("./package.json");
const authentication = require("./src/authentication");
const { addApiKey, handleErrors } = require("./src/api");
const newLead = require("./src/triggers/new-lead");
const leadStageChanged = require("./src/triggers/lead-stage-changed");
const eventChanged = require("./src/triggers/event-changed");
const pipelineStages = require("./src/triggers/pipeline-stages");
const handoffRequested = require("./src/triggers/handoff-requested");
const handoffConversations = require("./src/triggers/handoff-conversations");
const createLead = require("./src/creates/create-lead");
const changeLeadStage = require("./src/creates/change-lead-stage");
const sendMessage = require("./src/creates/send-message");

module.exports = {
  version,
  platformVersion,
  authentication,
  beforeRequest: [addApiKey],
  afterResponse: [handleErrors],
  triggers: {
    [newLead.key]: newLead,
    [leadStageChanged.key]: leadStageChanged,
    [eventChanged.key]: eventChanged,
    [pipelineStages.key]: pipelineStages,
    [handoffRequested.key]: handoffRequested,
    [handoffConversations.key]: handoffConversations,
  },
  creates: {
    [createLead.key]: createLead,
    [changeLeadStage.key]: changeLeadStage,
    [sendMessage.key]: sendMessage,
  },
  searches: {},
};
