// Schema-driven fuzzing of a running server: a seeded plan (fast-check) picks an operation and,
// for about half the requests, a mutation; json-schema-faker fills in values the contract allows.
// Every answer must be documented and match its schema, never a 5xx; a valid request must not
// be refused as invalid input, an invalid one must be refused with a 4xx. What a request creates
// must then be readable, and what it deletes gone. The same seed makes the same requests.
import fc from 'fast-check';
import { contractPath, contractProblem, findOperation } from '../support/contract-check.ts';
import type { SpecOperation } from '../support/spec.ts';
import { onlyBusinessRules } from './business-rules.ts';
import { contractRefusals } from './classify.ts';
import { written, type Draft } from './draft.ts';
import { IdPool } from './id-pool.ts';
import { mutations } from './mutations.ts';
import { requestShape, type RequestShape } from './request-shape.ts';
import { validDraft } from './valid-draft.ts';

export interface FuzzOptions {
  /** The API base URL, with its version segment. */
  baseUrl: string;
  seed: number;
  requests: number;
  operations: SpecOperation[];
  /** Authorization header values: `basic` for platform operations, `bearer` for the agent's. */
  authorization: { basic: string; bearer?: string };
  /** Ids the fuzzer must never delete or change (its own token and agent). */
  protectedIds?: string[];
  /** Told of every answer checked (operationId and status), for the status coverage. */
  observe?: (operationId: string, status: number) => void;
}

export interface FuzzFailure {
  index: number;
  rule: string;
  request: string;
  status: number | undefined;
  response: string;
}

export interface FuzzReport {
  seed: number;
  requests: number;
  valid: number;
  invalid: number;
  /** Read-back requests made to check what was created or deleted. */
  stateful: number;
  statuses: Record<string, number>;
  /** How many requests each mutation made. */
  mutations: Record<string, number>;
  failures: FuzzFailure[];
  /** Requests that took over a second, for a look at what is slow. */
  slow: string[];
  summary: string;
}

/** How many refused requests may be in flight at once (see the loop in fuzz()). */
const AHEAD = 8;

/** Error codes that say the request itself is malformed: a valid request must never get them. */
const MALFORMED = new Set(['INVALID_INPUT', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE']);

export async function fuzz(options: FuzzOptions): Promise<FuzzReport> {
  const shapes = options.operations.map(requestShape);
  const pool = new IdPool(new Set(options.protectedIds ?? []));
  const report: FuzzReport = { seed: options.seed, requests: 0, valid: 0, invalid: 0, stateful: 0, statuses: {}, mutations: {}, failures: [], slow: [], summary: '' };
  const plan = fc.sample(
    fc.record({ op: fc.nat({ max: shapes.length - 1 }), mutate: fc.nat({ max: 99 }), mutation: fc.nat(), picks: fc.array(fc.nat(), { minLength: 24, maxLength: 24 }) }),
    { seed: options.seed, numRuns: options.requests },
  );

  const send = async (index: number, d: Draft, expectation: 'valid' | 'invalid' | 'any') => {
    const auth = d.shape.auth === 'basic' ? options.authorization.basic : d.shape.auth === 'bearer' ? options.authorization.bearer : undefined;
    const { url, init, description } = written(d, options.baseUrl, auth);
    const fail = (rule: string, status?: number, response = '') => report.failures.push({ index, rule, request: description, status, response: response.slice(0, 1_500) });
    let res: Response;
    const started = performance.now();
    try {
      res = await fetch(url, { ...init, signal: AbortSignal.timeout(30_000) });
      const took = performance.now() - started;
      if (took > 1_000) report.slow.push(`${Math.round(took)} ms: ${description.split('\n')[0]}`);
    } catch (error) {
      fail(`no answer: ${(error as Error).message}`);
      return undefined;
    }
    report.requests++;
    report.statuses[res.status] = (report.statuses[res.status] ?? 0) + 1;
    const text = await res.clone().text();
    // The answer is checked against the operation the server routed to, as the contract names it.
    const op = findOperation(d.shape.op.method, contractPath(res.url)) ?? d.shape.op;
    options.observe?.(op.operation.operationId, res.status);
    if (res.status >= 500) fail('a 5xx answer', res.status, text);
    const problem = await contractProblem(op, res);
    if (problem !== undefined) fail(`answer outside the contract: ${problem.split('\n')[0]}`, res.status, text);
    const body = safeJson(text);
    const code = res.status >= 400 ? (body as { code?: string } | undefined)?.code : undefined;
    if (expectation === 'valid' && res.status < 500 && code !== undefined && MALFORMED.has(code) && !(code === 'INVALID_INPUT' && onlyBusinessRules(body))) {
      fail(`a valid request refused as ${code}`, res.status, text);
    }
    if (expectation === 'invalid' && res.status < 400) fail('an invalid request accepted', res.status, text);
    return { res, body };
  };

  // A request the contract refuses changes nothing (its answer is a 4xx: no object to collect,
  // nothing created or deleted), so the steps after it need not wait for its answer: up to
  // AHEAD of them are in flight together. Any other request waits until they are all answered,
  // and is answered before the next step is drawn, so every step is drawn from the same ids, and
  // the server's state changes in the same order, as when each request waits for the one before.
  // Answers are handled in the plan's order (and the failures sorted by it): the same seed makes
  // the same report.
  const inFlight: { index: number; shape: RequestShape; draft: Draft; answer: ReturnType<Send> }[] = [];
  const handle = async (index: number, shape: RequestShape, draft: Draft, answer: Awaited<ReturnType<Send>>) => {
    if (answer === undefined || answer.res.status >= 300) return;
    pool.collect(answer.body);
    await checkState(index, shape, draft, answer.res.status, answer.body, shapes, send, report);
  };
  const drain = async () => {
    for (const sent of inFlight.splice(0)) await handle(sent.index, sent.shape, sent.draft, await sent.answer);
  };

  for (const [index, step] of plan.entries()) {
    let cursor = 0;
    const pick = () => step.picks[cursor++ % step.picks.length] ?? 0;
    const shape = shapes[step.op] as RequestShape;
    const draft = validDraft(shape, pool, pick);
    if (step.mutate < 45) {
      const applicable = mutations.filter((m) => m.applies(draft));
      const mutation = applicable[step.mutation % Math.max(1, applicable.length)];
      if (mutation !== undefined) {
        mutation.apply(draft, pick);
        draft.mutation = mutation.name;
        report.mutations[mutation.name] = (report.mutations[mutation.name] ?? 0) + 1;
      }
    }
    const always = draft.mutation !== undefined && mutations.find((m) => m.name === draft.mutation)?.always === true;
    const refusals = always ? [draft.mutation as string] : await contractRefusals(draft);
    const expectation = refusals.length === 0 ? 'valid' : 'invalid';
    report[expectation]++;
    if (expectation === 'invalid') {
      const answer = send(index, draft, expectation);
      answer.catch(() => undefined); // awaited (and its error thrown) in drain()
      inFlight.push({ index, shape, draft, answer });
      if (inFlight.length >= AHEAD) await drain();
      continue;
    }
    await drain();
    await handle(index, shape, draft, await send(index, draft, expectation));
  }
  await drain();
  report.failures.sort((a, b) => a.index - b.index);

  const sorted = Object.entries(report.statuses).sort(([a], [b]) => Number(a) - Number(b));
  report.summary =
    `fuzz (seed ${report.seed}): ${report.requests} requests over ${shapes.length} operations, ${report.valid} valid and ${report.invalid} invalid by the contract, ` +
    `${report.stateful} read-backs of created or deleted objects; statuses ${sorted.map(([s, n]) => `${s}:${n}`).join(' ')}; ${report.failures.length} failures\n` +
    `  mutations: ${Object.entries(report.mutations).map(([m, n]) => `${m} ${n}`).join(', ')}`;
  return report;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

type Send = (index: number, d: Draft, expectation: 'valid' | 'invalid' | 'any') => Promise<{ res: Response; body: unknown } | undefined>;

/** After a create, the object is readable under its id; after a delete, it is gone. */
async function checkState(index: number, shape: RequestShape, draft: Draft, status: number, body: unknown, shapes: RequestShape[], send: Send, report: FuzzReport) {
  const { method, path } = shape.op;
  if (method === 'post' && (status === 200 || status === 201)) {
    const created = body as { id?: unknown; agent?: { id?: unknown } } | undefined;
    const id = typeof created?.id === 'string' ? created.id : typeof created?.agent?.id === 'string' ? created.agent.id : undefined;
    // Readable where the contract reads one object of its type: the same collection first, then
    // any other (a platform's external account is created under /customers, read under /platform).
    const readers = shapes
      .filter((s) => s.op.method === 'get' && s.params.filter((p) => p.in === 'path').length === 1 && /\/\{[^}/]+\}$/.test(s.op.path))
      // A typed id (`Customer:...`) is read where the parameter's pattern takes it; an opaque one
      // (a document's, a verification's) where the parameter has no pattern.
      .filter((s) => new RegExp(String(s.params.find((p) => p.in === 'path')?.schema.pattern ?? '^(?![A-Za-z]+:)')).test(id ?? ''))
      .sort((a, b) => Number(b.op.path.startsWith(`${path}/`)) - Number(a.op.path.startsWith(`${path}/`)));
    if (id === undefined || readers.length === 0) return;
    const statuses: number[] = [];
    for (const reader of readers) {
      const name = reader.params.find((p) => p.in === 'path')?.name as string;
      const answer = await send(index, { shape: reader, path: { [name]: id }, rawPath: new Set(), query: [], headers: {} }, 'valid');
      report.stateful++;
      statuses.push(answer?.res.status ?? 0);
      if (answer?.res.status === 200 && (answer.body as { id?: unknown } | undefined)?.id === id) return;
    }
    report.failures.push({ index, rule: `created ${id} is not readable at ${readers.map((r) => `GET ${r.op.path}`).join(' or ')}`, request: `after ${draft.mutation ?? 'a valid request'} to ${method.toUpperCase()} ${path}`, status: statuses[0], response: statuses.join(', ') });
  }
  if (method === 'delete' && (status === 200 || status === 204)) {
    const reader = shapes.find((s) => s.op.method === 'get' && s.op.path === path);
    if (reader === undefined) return;
    const answer = await send(index, { shape: reader, path: { ...draft.path }, rawPath: new Set(draft.rawPath), query: [], headers: {} }, 'any');
    report.stateful++;
    if (answer === undefined) return;
    const read = answer.body as { isDeleted?: unknown; status?: unknown } | undefined;
    const gone = answer.res.status === 404 || answer.res.status === 410 || (answer.res.status === 200 && (read?.isDeleted === true || ['REVOKED', 'DELETED', 'INACTIVE'].includes(String(read?.status))));
    if (!gone) report.failures.push({ index, rule: `deleted object still readable at GET ${reader.op.path}`, request: `after DELETE ${path} ${JSON.stringify(draft.path)}`, status: answer.res.status, response: JSON.stringify(read).slice(0, 500) });
  }
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
