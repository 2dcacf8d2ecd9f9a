// PostgreSQL errors a repository turns into a domain outcome instead of a failure.
const codeOf = (err: unknown): unknown => (typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined);

/** The name of the unique constraint an insert or update violated, if that is why it failed. */
export function violatedUniqueConstraint(err: unknown): string | undefined {
  if (codeOf(err) !== '23505') return undefined;
  const constraint = (err as { constraint?: unknown }).constraint;
  return typeof constraint === 'string' ? constraint : undefined;
}
