// Which of the contract's path templates a request path is: shared by the kit, the suite's contract
// check (support/path-template.ts) and the mock's front, which must not load a validator to answer.

/** The template among `templates` that `path` (relative to the base path) matches; a literal segment beats a template (`/customers/internal-accounts` over `/customers/{customerId}`). */
export function matchPathTemplate(templates: Iterable<string>, path: string): string | undefined {
  const matches = [...templates].filter((template) =>
    new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`).test(path),
  );
  return matches.sort((a, b) => (a.match(/\{/g)?.length ?? 0) - (b.match(/\{/g)?.length ?? 0))[0];
}
