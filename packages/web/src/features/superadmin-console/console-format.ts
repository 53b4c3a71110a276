/** '1 user', '3 users'. */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? one : many}`;
}

/** Who did something: a person's name, or 'System' for the portal itself (no actor). */
export function actorName(person: { name: string } | null): string {
  return person?.name ?? 'System';
}
