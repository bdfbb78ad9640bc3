/*
 * The rules of pipeline stages that the settings form shares with the domain (no server imports).
 */

export type PipelineStage = { key: string; label: string; position: number };

export const MAX_STAGES = 20;
export const STAGE_LABEL_MAX = 50;
const STAGE_KEY_MAX = 40;

export function checkStageLabel(raw: string): { ok: true; value: string } | { ok: false; message: string } {
  const value = raw.trim().replace(/\s+/g, " ");
  if (!value) return { ok: false, message: "Enter a name for the stage." };
  if (Array.from(value).length > STAGE_LABEL_MAX)
    return { ok: false, message: `Use at most ${STAGE_LABEL_MAX} characters.` };
  if (/[\u0000-\u001f\u007f]/.test(value)) return { ok: false, message: "Use letters, digits and punctuation only." };
  return { ok: true, value };
}

/**
 * A stable machine key from a label: "Proposal sent" → "proposal_sent", "Négociation" → "negociation";
 * "_2", "_3" … when taken. Keys are what leads and API clients hold, so they stay ASCII and short.
 */
export function deriveStageKey(label: string, taken: ReadonlySet<string>): string {
  const base =
    label
      .normalize("NFKD")
      .replace(/\p{M}/gu, "")
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "_")
      .replace(/^_+|_+$/g, "")
      .slice(0, STAGE_KEY_MAX)
      .replace(/_+$/, "") || "stage";
  if (!taken.has(base)) return base;
  for (let suffix = 2; ; suffix += 1) {
    const candidate = `${base.slice(0, STAGE_KEY_MAX - String(suffix).length - 1)}_${suffix}`;
    if (!taken.has(candidate)) return candidate;
  }
}
