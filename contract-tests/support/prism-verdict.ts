// What a `prism proxy --errors` in front of a server says about one exchange, read from the
// response it returns: the server's answer passed, Prism flagged the answer (a violation), or
// Prism answered itself without forwarding (it refused the request, or could not pass the answer
// on). Shared by checkResponse and the oracle's self-test, so the test proves the suite's check.

const PRISM_ERRORS = 'https://stoplight.io/prism/errors#';

export type PrismVerdict =
  /** The upstream's answer, unflagged. */
  | { kind: 'passed' }
  /** Prism found the upstream's answer invalid (500 VIOLATIONS, or an `sl-violations` header). */
  | { kind: 'violation'; details: string }
  /** Prism refused the request without forwarding it: invalid (422), no valid credentials (401), not a route of the spec (404, 405). */
  | { kind: 'refused'; type: string; details: string }
  /** The upstream answered 501, which Prism replaces with a problem of its own, unchecked. */
  | { kind: 'upstream-501' }
  /** Any other answer of Prism's own. */
  | { kind: 'prism-error'; type: string; details: string };

const REFUSALS = new Set(['UNPROCESSABLE_ENTITY', 'UNAUTHORIZED', 'NO_PATH_MATCHED_ERROR', 'NO_METHOD_MATCHED_ERROR']);

interface PrismProblem {
  type?: unknown;
  title?: unknown;
  detail?: unknown;
  validation?: { location?: string[]; code?: unknown; message?: string }[];
}

/** One line per validation error: `response.body.status: must be equal to one of the allowed values`. */
function describe(problem: PrismProblem): string {
  const lines = (problem.validation ?? []).map((v) => `${(v.location ?? []).join('.')}: ${v.message ?? ''} (${String(v.code)})`);
  return lines.length > 0 ? lines.join('\n') : `${String(problem.title)}: ${String(problem.detail)}`;
}

/** Reads the verdict from a copy of the response (the caller can still read the body). */
export async function prismVerdict(response: Response): Promise<PrismVerdict> {
  const type = response.headers.get('content-type') ?? '';
  if (type.startsWith('application/problem+json')) {
    const problem = JSON.parse(await response.clone().text()) as PrismProblem;
    if (typeof problem.type === 'string' && problem.type.startsWith(PRISM_ERRORS)) {
      const name = problem.type.slice(PRISM_ERRORS.length);
      if (name === 'VIOLATIONS') return { kind: 'violation', details: describe(problem) };
      if (REFUSALS.has(name)) return { kind: 'refused', type: name, details: describe(problem) };
      if (name === 'UPSTREAM_NOT_IMPLEMENTED') return { kind: 'upstream-501' };
      return { kind: 'prism-error', type: name, details: describe(problem) };
    }
  }
  // Without --errors, or for warnings, Prism forwards the answer and lists what it found here.
  const header = response.headers.get('sl-violations');
  if (header !== null) return { kind: 'violation', details: header };
  return { kind: 'passed' };
}
