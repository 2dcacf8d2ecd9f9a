// Helpers for requests made outside the typed client (raw(), or fetch where a test must not go
// through the contract check): the Basic credentials header, a JSON body, and what an error
// response says. The readers work on a copy of the response, so one response can be read twice.
import type { ErrorBody } from './api.ts';

/** The value of the Authorization header for API token credentials. */
export const basicAuth = ({ clientId, clientSecret }: { clientId: string; clientSecret: string }): string => `Basic ${btoa(`${clientId}:${clientSecret}`)}`;

/** Headers and body of a raw JSON request: `raw('POST', path, jsonBody({ ... }))`. */
export const jsonBody = (body: unknown, headers: Record<string, string> = {}): { headers: Record<string, string>; body: string } => ({
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(body),
});

/** A JSON body given as text, for bodies JSON.stringify cannot write (escapes, 1e400, malformed JSON). */
export const jsonText = (text: string, headers: Record<string, string> = {}): { headers: Record<string, string>; body: string } => ({
  headers: { 'content-type': 'application/json', ...headers },
  body: text,
});

/** The error code of a raw response. */
export const codeOf = async (res: Response): Promise<string> => ((await res.clone().json()) as ErrorBody).code;

/** The fields named by the field errors of a raw response (`/name`, `path.customerId`, ...). */
export const fieldErrors = async (res: Response): Promise<string[]> =>
  ((await res.clone().json()) as ErrorBody).details?.errors?.map((e) => e.field) ?? [];
