import { MAX_ALLOWED_ORIGINS, normaliseOrigin, parseAllowedOrigins } from "./origins";
import { BRANDING_FIELDS, checkBranding, type Branding } from "./settings-branding";
import { checkMessageText } from "./text";

/*
 * The chat widget's settings as a person types them in Settings → Chat widget (docs/chat-widget.md).
 * Pure, so the form can share the limits. The greeting becomes the first message of every conversation,
 * so it passes the same text check as any message; the name is shown above the chat and on each answer.
 */

export const MAX_ASSISTANT_NAME_LENGTH = 60;
export const MAX_GREETING_LENGTH = 500;
/** Far more than MAX_ALLOWED_ORIGINS lines can need; refuses a pasted file before it is parsed. */
const MAX_ORIGINS_TEXT_LENGTH = 10_000;

/** Branding left out is saved as empty (not set). */
export type WidgetSettingsForm = {
  assistantName: string;
  greeting: string;
  allowedOrigins: string;
} & Partial<Branding>;
export type CheckedWidgetSettings = { assistantName: string; greeting: string; allowedOrigins: string[] } & Branding;
export type SettingsField = keyof WidgetSettingsForm;
export { BRANDING_FIELDS };
/** One message per problem; the origins field may have several, one per bad entry. */
export type SettingsProblems = Partial<Record<SettingsField, string[]>>;

const length = (text: string) => [...text].length;

function checkAssistantName(value: string): string | null {
  const checked = checkMessageText(value.replace(/\s+/g, " "));
  if (!checked.ok)
    return checked.code === "empty" ? "Enter the assistant's name." : "The name contains characters that are not text.";
  if (length(checked.text) > MAX_ASSISTANT_NAME_LENGTH)
    return `The name can be at most ${MAX_ASSISTANT_NAME_LENGTH} characters.`;
  return null;
}

function checkGreeting(value: string): string | null {
  const checked = checkMessageText(value);
  if (!checked.ok)
    return checked.code === "empty"
      ? "Enter a greeting: it is the first message visitors see."
      : "The greeting contains characters that are not text.";
  if (length(checked.text) > MAX_GREETING_LENGTH)
    return `The greeting can be at most ${MAX_GREETING_LENGTH} characters.`;
  return null;
}

/** The entry as the message quotes it: a pasted paragraph is cut short. */
const quote = (entry: string) => `“${length(entry) > 80 ? `${[...entry].slice(0, 79).join("")}…` : entry}”`;

/** The origin a person probably meant ("example.com/shop" → "https://example.com"), if one can be guessed. */
function suggestedOrigin(entry: string): string | null {
  try {
    const url = new URL(/^[a-z][a-z\d+.-]*:\/\//i.test(entry) ? entry : `https://${entry}`);
    if ((url.protocol !== "https:" && url.protocol !== "http:") || url.username || url.password) return null;
    return normaliseOrigin(url.origin);
  } catch {
    return null;
  }
}

/** Why one entry is not an origin, in words that show the fix where one can be guessed. */
export function originProblem(entry: string): string {
  if (entry.includes("*")) return `${quote(entry)}: wildcards are not allowed. List each site on its own line.`;
  const suggestion = suggestedOrigin(entry);
  if (suggestion)
    return `${quote(entry)} is not an origin: write ${suggestion} (the scheme and host, nothing after them).`;
  return `${quote(entry)} is not a website origin such as https://www.example.com.`;
}

function checkOrigins(text: string): { origins: string[] } | { problems: string[] } {
  if (text.length > MAX_ORIGINS_TEXT_LENGTH) return { problems: [`List at most ${MAX_ALLOWED_ORIGINS} origins.`] };
  const parsed = parseAllowedOrigins(text);
  if (parsed.ok) return { origins: parsed.origins };
  // parseAllowedOrigins refuses bad entries first; entries that are all origins were refused for their number.
  if (parsed.invalid.every((entry) => normaliseOrigin(entry) !== null)) {
    return { problems: [`List at most ${MAX_ALLOWED_ORIGINS} origins; remove ${parsed.invalid.length} of them.`] };
  }
  return { problems: [...new Set(parsed.invalid)].map(originProblem) };
}

/** The settings as stored (name and greeting trimmed, origins canonical and unique), or each field's problems. */
export function checkWidgetSettings(
  form: WidgetSettingsForm,
): { ok: true; settings: CheckedWidgetSettings } | { ok: false; problems: SettingsProblems } {
  const problems: SettingsProblems = {};
  const nameProblem = checkAssistantName(form.assistantName);
  if (nameProblem) problems.assistantName = [nameProblem];
  const greetingProblem = checkGreeting(form.greeting);
  if (greetingProblem) problems.greeting = [greetingProblem];
  const origins = checkOrigins(form.allowedOrigins);
  if ("problems" in origins) problems.allowedOrigins = origins.problems;
  const branding = checkBranding(form);
  if (!branding.ok) Object.assign(problems, branding.problems);
  if (Object.keys(problems).length > 0 || "problems" in origins || !branding.ok) return { ok: false, problems };
  return {
    ok: true,
    settings: {
      assistantName: form.assistantName.replace(/\s+/g, " ").trim(),
      greeting: form.greeting.trim(),
      allowedOrigins: origins.origins,
      ...branding.branding,
    },
  };
}
