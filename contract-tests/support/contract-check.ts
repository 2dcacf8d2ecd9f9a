// The contract check of one response, apart from any target: which operation a request was for,
// and what about the answer the spec does not allow (an undocumented status, a body where none
// is documented, another content type, a body its schema rejects). Used by the suite's client
// and by the oracles, which also check servers of their own.
import { API_VERSION } from '../../client/index.ts';
import { matchPathTemplate } from './path-template.ts';
import { validateAgainst } from './schema-validator.ts';
import { deref, operations, type SpecOperation } from './spec.ts';

type Json = Record<string, unknown>;

/** The operation of a request path (relative to the API base path), matching path templates. */
export function findOperation(method: string, path: string): SpecOperation | undefined {
  const candidates = operations.filter((o) => o.method === method.toLowerCase());
  const template = matchPathTemplate(candidates.map((o) => o.path), path);
  return candidates.find((o) => o.path === template);
}

/** A request URL's path as the contract names it: servers have the version segment, Prism routes without it. */
export const contractPath = (url: string): string => new URL(url).pathname.replace(new RegExp(`^/${API_VERSION}(?=/|$)`), '');

/** What is wrong with the response to `method path` under the contract, or undefined when nothing is. */
export async function contractProblem(op: SpecOperation, response: Response): Promise<string | undefined> {
  const documented = op.operation.responses[String(response.status)];
  const text = await response.clone().text();
  if (documented === undefined) return `status ${response.status} not documented for ${op.operation.operationId} (body: ${text.slice(0, 500)})`;
  const content = deref<Json>(documented).content as Record<string, { schema?: { $ref?: string } }> | undefined;
  if (content === undefined) return text === '' ? undefined : `documented without a body but got: ${text.slice(0, 500)}`;
  const type = response.headers.get('content-type') ?? '';
  if (!type.startsWith('application/json')) return `content-type ${type}, expected application/json`;
  const pointer = content['application/json']?.schema?.$ref;
  if (pointer === undefined) return 'no JSON schema documented';
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return `body is not JSON: ${text.slice(0, 500)}`;
  }
  const problems = await validateAgainst(pointer, body);
  return problems.length === 0 ? undefined : `body does not match ${pointer}: ${JSON.stringify(problems)}\n${text.slice(0, 2000)}`;
}
