// A valid request for an operation, built from the spec's own examples of its parameters and
// request body (JSON or multipart), for tests generated over every operation.
import { deref, type SpecOperation } from './spec.ts';

type Json = Record<string, unknown>;

/** A valid request for the operation, from the examples of its parameters and request body. */
export function exampleRequest(o: SpecOperation): { path: string; init: { headers: Record<string, string>; body?: string | FormData } } {
  const params = [...((o.pathItem.parameters as Json[] | undefined) ?? []), ...(o.operation.parameters ?? [])].map((p) => deref<Json>(p));
  let path = o.path;
  const query = new URLSearchParams();
  for (const p of params) {
    if (p.in === 'path') path = path.replace(`{${p.name as string}}`, encodeURIComponent(String(p.example)));
    if (p.in === 'query' && p.required === true) query.set(p.name as string, String(p.example));
  }
  const headers: Record<string, string> = {};
  const content = deref<Json>(o.operation.requestBody)?.content as Record<string, Json> | undefined;
  const [type, media] = Object.entries(content ?? {})[0] ?? [];
  const example = media === undefined ? undefined : deref<Json>(Object.values((media.examples ?? {}) as Json)[0]).value;
  let body: string | FormData | undefined;
  if (type === 'application/json') {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(example);
  } else if (type === 'multipart/form-data') {
    const form = new FormData();
    for (const [name, value] of Object.entries((example ?? {}) as Json)) {
      form.append(name, name === 'file' ? new Blob([String(value)], { type: 'application/pdf' }) : String(value), ...(name === 'file' ? ['example.pdf'] : []));
    }
    body = form;
  }
  return { path: `${path}${query.size > 0 ? `?${query}` : ''}`, init: { headers, ...(body === undefined ? {} : { body }) } };
}
