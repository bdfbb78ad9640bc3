import { hash, verify } from "@node-rs/argon2";

// argon2id with OWASP's recommended minimum (19 MiB, 2 iterations, 1 lane).
const OPTIONS = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/*
 * Each hash or verification takes ~19 MiB and a thread for tens of milliseconds. Bounding how many run at
 * once across the process keeps a burst of sign-ups or sign-ins from exhausting memory and the thread
 * pool that the rest of the app (file and DNS work) shares; the others wait their turn in order.
 */
export const MAX_CONCURRENT_HASHES = 4;
let running = 0;
const waiting: (() => void)[] = [];

async function bounded<T>(work: () => Promise<T>): Promise<T> {
  if (running >= MAX_CONCURRENT_HASHES) await new Promise<void>((resolve) => waiting.push(resolve));
  else running++;
  try {
    return await work();
  } finally {
    // Hand the slot straight to the next waiter, so `running` never drops below the number at work.
    const next = waiting.shift();
    if (next) next();
    else running--;
  }
}

/** How many hashes or verifications are running now (for tests and diagnostics). */
export function hashesRunning(): number {
  return running;
}

export function hashPassword(password: string): Promise<string> {
  return bounded(() => hash(password, OPTIONS));
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await bounded(() => verify(passwordHash, password));
  } catch {
    return false;
  }
}

/** A hash to verify against when the email is unknown, so timing does not reveal which emails exist. */
let dummyHash: Promise<string> | null = null;
export function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword("not-a-real-password-" + Math.random());
  return dummyHash;
}
