// A valid request for any operation, made of the spec's own examples of its parameters and request
// body (JSON or multipart): what the checks generated over every operation send, changed in the
// one place each check is about (no credentials, an unknown field, an id that does not exist).
import { randomBytes, randomUUID } from 'node:crypto';
import { bodyTypesOf, deref, parametersOf, type Operation } from './bundle.ts';
import type { RequestOptions } from './http.ts';

type Json = Record<string, unknown>;

export interface ExampleRequest {
  method: string;
  path: string;
  /** The values put in the path, by parameter name. */
  pathValues: Record<string, string>;
  options: RequestOptions;
}

/** The first named example of the request body of `type`. */
export function exampleBody(op: Operation, type: string): unknown {
  const media = (deref<{ content?: Record<string, Json> }>(op.operation.requestBody)?.content ?? {})[type];
  if (media === undefined) return undefined;
  const first = Object.values((media.examples ?? {}) as Json)[0];
  return first === undefined ? media.example : deref<Json>(first).value;
}

/** A multipart body from an example object: `file` becomes a small PDF. */
export function formOf(example: Json): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(example)) {
    if (name === 'file') form.append('file', new Blob([`%PDF-1.7\n${String(value)}`.padEnd(400, ' ')], { type: 'application/pdf' }), 'example.pdf');
    else form.append(name, String(value));
  }
  return form;
}

/** The operation's example request; `path` values replace the examples of those parameters. */
export function exampleRequest(op: Operation, pathValues: Record<string, string> = {}): ExampleRequest {
  const values: Record<string, string> = {};
  let path = op.path;
  const query: Record<string, string> = {};
  for (const p of parametersOf(op)) {
    if (p.in === 'path') {
      const value = pathValues[p.name] ?? String(p.example ?? (p.schema as { examples?: unknown[] } | undefined)?.examples?.[0]);
      values[p.name] = value;
      path = path.replace(`{${p.name}}`, encodeURIComponent(value));
    }
    if (p.in === 'query' && p.required === true) query[p.name] = String(p.example);
  }
  const options: RequestOptions = { query };
  const [type] = bodyTypesOf(op);
  if (type === 'application/json') options.body = exampleBody(op, type) ?? {};
  if (type === 'multipart/form-data') options.form = formOf((exampleBody(op, type) ?? {}) as Json);
  return { method: op.method.toUpperCase(), path, pathValues: values, options };
}

/** A well-formed value of a path parameter that names nothing: an id of the right type, a code of the right shape. */
export function unknownValueOf(op: Operation, name: string): string | undefined {
  const param = parametersOf(op).find((p) => p.in === 'path' && p.name === name);
  const pattern = String((deref<Json>(param?.schema).pattern as string | undefined) ?? '');
  const type = /^\^\(?([A-Z][A-Za-z]*)[|:]/.exec(pattern)?.[1];
  if (type !== undefined) return `${type}:${randomUUID()}`;
  if (pattern === '^[0-9a-f]{8}$') return randomBytes(4).toString('hex');
  if (pattern.startsWith('^AGENT-')) {
    const part = () => Array.from(randomBytes(4), (b) => 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789'[b % 32]).join('');
    return `AGENT-${part()}-${part()}`;
  }
  return undefined;
}
