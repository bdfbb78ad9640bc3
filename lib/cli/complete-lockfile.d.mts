export function completeLockfile(text: string): { text: string; added: number };
