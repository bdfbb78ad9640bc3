/**
 * "80 characters (12 used)", for a text setting's hint: its limit and how much of it the typed text takes,
 * counted in code points as the server checks it (an emoji counts once).
 */
export function charactersUsed(max: number, text: string): string {
  return `${max} characters (${[...text].length} used)`;
}
