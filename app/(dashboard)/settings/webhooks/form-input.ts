import "server-only";
import { z } from "zod";
import { formList } from "@/lib/actions/action";
import type { FieldProblem, SubscriptionFailure } from "@/lib/webhook-subscriptions/model";
import { SUBSCRIPTION_LIMITS } from "@/lib/webhook-subscriptions/model";
import { createSubscriptionSchema, updateSubscriptionSchema } from "@/lib/webhook-subscriptions/schemas";
import { allowLoopbackTargets } from "@/lib/webhook-subscriptions/addresses";
import { validateTargetUrl } from "@/lib/webhook-subscriptions/target-url";
import { parseDetailed } from "@/lib/webhook-subscriptions/validation";

/*
 * The dashboard's subscription form (fields url, eventTypes, description) checked by the same schemas as
 * the public API, so both accept exactly the same subscriptions; only the words differ: the API's
 * messages speak to developers, these to the person at the form.
 */

export const subscriptionFormInput = z.object({
  url: z.string().default(""),
  eventTypes: formList(z.string()),
  description: z.string().default(""),
});

type FormInput = z.output<typeof subscriptionFormInput>;
export type FormErrors = Record<string, string>;

const PLAN_NAMES = { free: "Free", pro: "Pro" } as const;

/** A URL problem of the domain (by its reason) in words for the form. */
function urlMessage(problem: FieldProblem, url: string): string {
  let host = "";
  try {
    host = new URL(url.trim()).hostname;
  } catch {
    // not a URL: the reason says so
  }
  switch (problem.reason) {
    case "invalid_url":
      if (!url.trim()) return "Enter the address notifications should go to.";
      return "Enter a full address starting with https://, for example https://hooks.example.com/incoming.";
    case "scheme_not_allowed":
      return "Notifications are only sent to https addresses. Use an address starting with https://.";
    case "credentials_not_allowed":
      return "Remove the user name and password from the address. Receivers check the signature instead.";
    case "private_address":
      // A name that does not resolve reads like a private one: the answer must not tell them apart.
      return host && !/^[\d.]+$|:/.test(host) && host !== "localhost"
        ? `We could not find a public address for ${host}: it does not exist yet, or it points to a private network. ` +
            "Check the spelling. Notifications can only go to a server reachable on the public internet."
        : "This address is on a private network (such as localhost, 10.x.x.x or 192.168.x.x). " +
            "Notifications can only go to a server reachable on the public internet.";
    case "port_not_allowed":
      return (
        "Notifications go to port 443 or to a port from 1024 to 65535. " +
        "Remove the port from the address, or use another one."
      );
    case "url_too_long":
      return problem.message;
    default:
      return problem.message;
  }
}

const fieldOf = (field: string) =>
  field.startsWith("event_types") || field === "event" ? "eventTypes" : field === "target_url" ? "url" : field;

/** The domain's per-field problems as the form's field errors (first message per field). */
export function fieldErrors(details: FieldProblem[], url: string): FormErrors {
  const errors: FormErrors = {};
  for (const detail of details) {
    const field = fieldOf(detail.field);
    if (errors[field]) continue;
    if (field === "url") errors.url = urlMessage(detail, url);
    else if (field === "eventTypes")
      errors.eventTypes =
        detail.reason === "empty_event_types" ? "Choose at least one event type, or All events." : detail.message;
    else errors[field] = detail.message;
  }
  return errors;
}

/**
 * The form's field errors when the schema refused it. The store checks the URL's addresses only once
 * the rest is valid; the form checks it too, so one answer names every field that needs fixing.
 */
export async function invalidFormErrors(details: FieldProblem[], url: string): Promise<FormErrors> {
  const errors = fieldErrors(details, url);
  if (errors.url) return errors;
  const checked = await validateTargetUrl(url, { allowLoopback: allowLoopbackTargets() });
  return checked.ok
    ? errors
    : { url: urlMessage({ field: "url", reason: checked.code, message: checked.message }, url), ...errors };
}

export function parseCreate(input: FormInput) {
  return parseDetailed(createSubscriptionSchema, {
    url: input.url.trim(),
    event_types: input.eventTypes,
    description: input.description,
  });
}

export function parseUpdate(input: FormInput) {
  return parseDetailed(updateSubscriptionSchema, {
    url: input.url.trim(),
    event_types: input.eventTypes,
    description: input.description,
  });
}

/** A refusal that is not about one field, in words for a toast or the form's alert. */
export function failureMessage(failure: SubscriptionFailure, plan: "free" | "pro"): string {
  switch (failure.code) {
    case "plan_limit_reached":
      return plan === "free"
        ? `The ${PLAN_NAMES[plan]} plan allows ${failure.limit} webhook subscriptions and this account has ` +
            `${failure.limit}. Delete one you no longer use, or upgrade to Pro for up to ` +
            `${SUBSCRIPTION_LIMITS.pro}.`
        : `The ${PLAN_NAMES[plan]} plan allows ${failure.limit} webhook subscriptions and this ` +
            `account has ${failure.limit}. Delete one you no longer use to add another.`;
    case "not_found":
      return "This subscription no longer exists; it may have been deleted.";
    default:
      return "Check the fields marked below.";
  }
}
