import { describe, expect, it } from "vitest";
import { api, App, appTester, bundle, failureOf } from "./support.mjs";

const createLead = App.creates.create_lead.operation.perform;
const changeStage = App.creates.change_lead_stage.operation.perform;
const stages = App.triggers.pipeline_stage.operation.perform;

describe("the Stage dropdown", () => {
  it("lists the pipeline's stages in order, keyed by stage key", async () => {
    const choices = await appTester(stages, bundle());
    expect(choices.map(({ id, label }) => ({ id, label }))).toEqual([
      { id: "new", label: "New" },
      { id: "contacted", label: "Contacted" },
      { id: "qualified", label: "Qualified" },
      { id: "won", label: "Won" },
      { id: "lost", label: "Lost" },
    ]);
  });

  it("is what both lead actions' Stage fields read", () => {
    for (const create of [App.creates.create_lead, App.creates.change_lead_stage]) {
      const field = create.operation.inputFields.find((input) => input.key === "stage");
      expect(field.dynamic).toBe("pipeline_stage.id.label");
    }
  });
});

describe("Create Lead", () => {
  it("creates the lead with the fields given and a stage from the dropdown", async () => {
    const [, contacted] = await appTester(stages, bundle());
    const lead = await appTester(
      createLead,
      bundle({
        inputData: {
          name: "Grace Hopper",
          email: "Grace@Example.com",
          phone: "+1 555 0100",
          company: "Navy",
          notes: "Met at a conference.",
          stage: contacted.id,
        },
      }),
    );
    expect(lead).toMatchObject({
      name: "Grace Hopper",
      email: "grace@example.com",
      phone: "+1 555 0100",
      company: "Navy",
      notes: "Met at a conference.",
      stage: "contacted",
      source: "zapier",
    });
    const stored = await api(`/leads/${lead.id}`);
    expect(stored.body).toEqual(lead);
  });

  it("puts the lead in the first stage when none is chosen, ignoring empty fields", async () => {
    const lead = await appTester(createLead, bundle({ inputData: { name: "Only A Name", email: "", company: "" } }));
    expect(lead).toMatchObject({ name: "Only A Name", email: null, company: null, stage: "new" });
  });

  it("reports the API's own message and code when the email exists", async () => {
    await appTester(createLead, bundle({ inputData: { email: "twice@example.com" } }));
    const error = await failureOf(appTester(createLead, bundle({ inputData: { email: "twice@example.com" } })));
    expect(error.name).toBe("AppError");
    expect(JSON.parse(error.message)).toMatchObject({ code: "lead_exists", status: 409 });
  });

  it("names the invalid field when the API refuses the input", async () => {
    const error = await failureOf(
      appTester(createLead, bundle({ inputData: { name: "Bad Mail", email: "not-an-email" } })),
    );
    const { code, status, message } = JSON.parse(error.message);
    expect({ code, status }).toEqual({ code: "invalid_request", status: 400 });
    expect(message).toMatch(/email: /);
  });
});

describe("Change Lead Stage", () => {
  it("moves the lead to each stage the dropdown offers", async () => {
    const lead = await appTester(createLead, bundle({ inputData: { name: "Moving Lead" } }));
    const choices = await appTester(stages, bundle());
    for (const stage of choices.slice(1)) {
      const moved = await appTester(changeStage, bundle({ inputData: { lead_id: lead.id, stage: stage.id } }));
      expect(moved).toMatchObject({ id: lead.id, stage: stage.id });
    }
    expect((await api(`/leads/${lead.id}`)).body.stage).toBe("lost");
  });

  it("reports 404 not_found for a lead that does not exist", async () => {
    const error = await failureOf(
      appTester(changeStage, bundle({ inputData: { lead_id: "lead_doesnotexist0000000000", stage: "won" } })),
    );
    expect(JSON.parse(error.message)).toMatchObject({ code: "not_found", status: 404 });
  });
});
