// The authentication and isolation matrix: every operation of the contract against every kind of
// caller that must not get through, generated from the spec so a new operation is covered without
// a new test. A cell either expects given statuses (401, 403; with the error codes, when given) or
// isolation: the caller belongs to another tenant, and whatever it gets, it is never the tenant's
// data. A case may send a request of its own (one that gives power, for the grant rule).
import { contractProblem } from '../support/contract-check.ts';
import type { SpecOperation } from '../support/spec.ts';

export type Security = 'basic' | 'bearer' | 'none';

export interface MatrixCase {
  name: string;
  /** Which operations the case is about (by their security scheme and declared permission). */
  applies(op: SpecOperation, security: Security): boolean;
  /** The Authorization header of the case's caller for the operation (undefined: none sent). */
  authorization(op: SpecOperation, security: Security): Promise<string | undefined>;
  /** The case's own request for the operation, instead of the matrix's. */
  request?(op: SpecOperation): Promise<MatrixRequest>;
  expect: { statuses: number[]; codes?: string[] } | 'isolated';
}

export interface MatrixRequest {
  path: string;
  init: { headers: Record<string, string>; body?: string | FormData };
}

export interface MatrixOptions {
  baseUrl: string;
  operations: SpecOperation[];
  cases: MatrixCase[];
  /** A valid request for the operation, naming the tenant's own objects. */
  request(op: SpecOperation): MatrixRequest;
  /** Ids of the tenant's objects: another tenant's caller must never see one it did not send. */
  tenantIds: ReadonlySet<string>;
  /** Operations on objects other tenants may see by design, with the reason: a 403 is not a leak there. */
  shared?: Record<string, string>;
  observe?: (operationId: string, status: number) => void;
}

export interface MatrixReport {
  cells: number;
  notApplicable: number;
  failures: string[];
  /** Per case: how many operations it covered, with the statuses seen. */
  perCase: Record<string, { cells: number; statuses: Record<string, number> }>;
  summary: string;
}

export const securityOf = (op: SpecOperation): Security => {
  const security = op.operation.security ?? [];
  return security.some((s) => 'basicAuth' in s) ? 'basic' : security.some((s) => 'bearerAuth' in s) ? 'bearer' : 'none';
};

const ID = /[A-Za-z]+:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

/** What is wrong with a cell's answer, or undefined. */
export async function cellProblem(op: SpecOperation, expectation: MatrixCase['expect'], sent: { path: string; body: string }, res: Response, tenantIds: ReadonlySet<string>, shared = false): Promise<string | undefined> {
  const problem = await contractProblem(op, res);
  if (problem !== undefined) return problem.split('\n')[0];
  if (expectation !== 'isolated') {
    if (!expectation.statuses.includes(res.status)) return `expected ${expectation.statuses.join(' or ')}, got ${res.status}: ${(await res.clone().text()).slice(0, 200)}`;
    const code = expectation.codes === undefined ? undefined : ((await res.clone().json().catch(() => ({}))) as { code?: string }).code;
    return expectation.codes === undefined || expectation.codes.includes(code ?? '') ? undefined : `expected code ${expectation.codes.join(' or ')}, got ${code}`;
  }
  if (res.status >= 500) return `a ${res.status}`;
  // Another tenant's objects do not exist for the caller: 404, never a 403 that says they do.
  if (res.status === 403 && !shared) return `403 reveals that the tenant's object exists: ${(await res.clone().text()).slice(0, 200)}`;
  const named = new Set([...`${decodeURIComponent(sent.path)} ${sent.body}`.matchAll(ID)].map((m) => m[0]).filter((id) => tenantIds.has(id)));
  const inPath = [...decodeURIComponent(sent.path.split('?')[0] ?? '').matchAll(ID)].some((m) => tenantIds.has(m[0]));
  if (inPath && !shared && res.status !== 404) return `the path names the tenant's object, expected 404, got ${res.status}`;
  if (named.size > 0 && op.method !== 'get' && res.status < 400) return `acted on the tenant's objects (${[...named].join(', ')}) with ${res.status}`;
  const leaked = [...(await res.clone().text()).matchAll(ID)].map((m) => m[0]).filter((id) => tenantIds.has(id) && !named.has(id));
  return leaked.length > 0 ? `the answer holds the tenant's ${[...new Set(leaked)].join(', ')}` : undefined;
}

export async function runMatrix(options: MatrixOptions): Promise<MatrixReport> {
  const report: MatrixReport = { cells: 0, notApplicable: 0, failures: [], perCase: {}, summary: '' };
  for (const matrixCase of options.cases) {
    const row = (report.perCase[matrixCase.name] = { cells: 0, statuses: {} as Record<string, number> });
    for (const op of options.operations) {
      const security = securityOf(op);
      if (!matrixCase.applies(op, security)) {
        report.notApplicable++;
        continue;
      }
      const { path, init } = matrixCase.request === undefined ? options.request(op) : await matrixCase.request(op);
      const headers: Record<string, string> = { ...init.headers };
      const authorization = await matrixCase.authorization(op, security);
      if (authorization !== undefined) headers.Authorization = authorization;
      const where = `${matrixCase.name} × ${op.operation.operationId} (${op.method.toUpperCase()} ${path})`;
      let res: Response;
      try {
        res = await fetch(`${options.baseUrl}${path}`, { method: op.method.toUpperCase(), headers, ...(init.body === undefined ? {} : { body: init.body }) });
      } catch (error) {
        report.failures.push(`${where}: no answer (${(error as Error).message})`);
        continue;
      }
      report.cells++;
      row.cells++;
      row.statuses[res.status] = (row.statuses[res.status] ?? 0) + 1;
      options.observe?.(op.operation.operationId, res.status);
      const problem = await cellProblem(op, matrixCase.expect, { path, body: typeof init.body === 'string' ? init.body : '' }, res, options.tenantIds, options.shared?.[op.operation.operationId] !== undefined);
      if (problem !== undefined) report.failures.push(`${where}: ${problem}`);
    }
  }
  const rows = Object.entries(report.perCase).map(([name, r]) => `${name}: ${r.cells} (${Object.entries(r.statuses).map(([s, n]) => `${s}:${n}`).join(' ')})`);
  report.summary = `auth matrix: ${options.operations.length} operations × ${options.cases.length} callers, ${report.cells} cells checked, ${report.notApplicable} not applicable, ${report.failures.length} failures\n  ${rows.join('\n  ')}`;
  return report;
}
