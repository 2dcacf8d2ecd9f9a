// A request the fuzzer is about to send, before it is written out: typed values the mutations can
// change, and how it is sent (URL, headers, body) once they are done.
import type { RequestShape } from './request-shape.ts';

export interface Draft {
  shape: RequestShape;
  /** Path parameter values, written into the path percent-encoded unless `rawPath` names them. */
  path: Record<string, string>;
  rawPath: Set<string>;
  query: [string, string][];
  headers: Record<string, string>;
  /** The JSON body (application/json operations). */
  json?: unknown;
  /** The fields of a multipart body; `file` is sent as a file part. */
  form?: Record<string, unknown>;
  /** A body given as text, replacing the serialised `json` or `form`. */
  bodyText?: string;
  contentType?: string;
  /** The mutation that made this request invalid (or tried to), for the report. */
  mutation?: string;
}

/** A small PDF, enough for the sandbox's file-type check. */
export const PDF_BYTES = `%PDF-1.7\n${'%'.repeat(200)}\n%%EOF\n`;

export function written(d: Draft, baseUrl: string, authorization: string | undefined): { url: string; init: RequestInit; description: string } {
  let path = d.shape.op.path;
  for (const [name, value] of Object.entries(d.path)) path = path.replace(`{${name}}`, d.rawPath.has(name) ? value : encodeURIComponent(value));
  const query = new URLSearchParams(d.query).toString();
  const url = `${baseUrl}${path}${query === '' ? '' : `?${query}`}`;
  const headers: Record<string, string> = { ...d.headers };
  if (authorization !== undefined) headers.Authorization = authorization;
  let body: string | FormData | undefined;
  if (d.bodyText !== undefined) {
    body = d.bodyText;
    headers['content-type'] = d.contentType ?? 'application/json';
  } else if (d.json !== undefined) {
    body = JSON.stringify(d.json);
    headers['content-type'] = d.contentType ?? 'application/json';
  } else if (d.form !== undefined) {
    const form = new FormData();
    for (const [name, value] of Object.entries(d.form)) {
      if (name === 'file') form.append(name, new Blob([typeof value === 'string' ? value : PDF_BYTES], { type: 'application/pdf' }), 'document.pdf');
      else form.append(name, typeof value === 'string' ? value : JSON.stringify(value));
    }
    body = form;
  }
  const shown = typeof body === 'string' ? (body.length > 600 ? `${body.slice(0, 600)}… (${body.length} characters)` : body) : body === undefined ? '' : `multipart ${JSON.stringify(d.form)}`.slice(0, 600);
  const description = `${d.shape.op.method.toUpperCase()} ${url}${d.mutation === undefined ? '' : ` [${d.mutation}]`}\n  headers: ${JSON.stringify({ ...headers, ...(authorization === undefined ? {} : { Authorization: '…' }) })}\n  body: ${shown}`;
  return { url, init: { method: d.shape.op.method.toUpperCase(), headers, ...(body === undefined ? {} : { body }) }, description };
}
