// Which of the contract's path templates a request path is: shared by the kit, the suite's contract
// check (support/path-template.ts) and the mock's front, which must not load a validator to answer.
/** Each template's pattern, made once: every answer the kit or the suite checks asks for one (about 70 templates a call). */
const patterns = new Map();
function patternOf(template) {
    let pattern = patterns.get(template);
    if (pattern === undefined) {
        pattern = new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`);
        patterns.set(template, pattern);
    }
    return pattern;
}
/** The template among `templates` that `path` (relative to the base path) matches; a literal segment beats a template (`/customers/internal-accounts` over `/customers/{customerId}`). */
export function matchPathTemplate(templates, path) {
    const matches = [...templates].filter((template) => patternOf(template).test(path));
    return matches.sort((a, b) => (a.match(/\{/g)?.length ?? 0) - (b.match(/\{/g)?.length ?? 0))[0];
}
