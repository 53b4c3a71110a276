import { hash, verify } from '@node-rs/argon2';

// OWASP minimum for argon2id: 19 MiB, 2 iterations, 1 lane. (2 is Algorithm.Argon2id, a const enum we cannot import.)
const OPTIONS = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const hashPassword = (password: string) => hash(password, OPTIONS);
export const verifyPassword = (passwordHash: string, password: string) => verify(passwordHash, password);

/** True when a stored hash was made with other parameters than today's: re-hash it at the next login. */
export function needsRehash(passwordHash: string): boolean {
  const match = passwordHash.match(/^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$/);
  if (!match) return true;
  return (
    Number(match[1]) !== OPTIONS.memoryCost ||
    Number(match[2]) !== OPTIONS.timeCost ||
    Number(match[3]) !== OPTIONS.parallelism
  );
}
