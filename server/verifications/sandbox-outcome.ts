// The sandbox decides identity checks at once from the last 3 characters of a name or number:
// `001` needs a manual review (and stays there), `002` fails, anything else passes.
export type SandboxOutcome = 'PENDING' | 'REJECTED' | 'APPROVED';

export function sandboxOutcome(value: string): SandboxOutcome {
  const suffix = value.slice(-3);
  if (suffix === '001') return 'PENDING';
  if (suffix === '002') return 'REJECTED';
  return 'APPROVED';
}
