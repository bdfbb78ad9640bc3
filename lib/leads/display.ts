/* Presentation helpers shared by the dashboard's server and client components (no server imports). */

/** How a lead is named where a name is needed: its name, else its email, else its phone. */
export function leadDisplayName(lead: { name: string | null; email: string | null; phone: string | null }): string {
  return lead.name || lead.email || lead.phone || "Unnamed lead";
}

const number = new Intl.NumberFormat("en-US");

/** "1 lead", "24 leads", "1,000+ leads" for a count taken with a cap. */
export function leadCountLabel(count: number, cap?: number): string {
  if (cap !== undefined && count > cap) return `${number.format(cap)}+ leads`;
  return `${number.format(count)} ${count === 1 ? "lead" : "leads"}`;
}

/** Why a stage cannot be removed: "3 leads are in this stage. Move them to another stage first." */
export function stageInUseMessage(count: number, cap?: number): string {
  const many = count !== 1;
  return (
    `${leadCountLabel(count, cap).replace(/ leads?$/, "")} ${many ? "leads are" : "lead is"} in this stage. ` +
    `Move ${many ? "them" : "it"} to another stage first.`
  );
}
