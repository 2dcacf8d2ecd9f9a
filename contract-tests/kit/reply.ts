// An answer as the kit saw it: the lowest layer of the kit's own code (failures point at one).
export interface Reply {
  method: string;
  /** The path relative to the base URL, with its query. */
  path: string;
  operationId: string | undefined;
  status: number;
  headers: Headers;
  text: string;
  /** The parsed JSON body (undefined when there is none, or it is not JSON). */
  body: unknown;
  requestId: string | null;
  /** `POST /customers → 201 (X-Request-Id: …)`. */
  summary: string;
  /** The request as sent. */
  request: SentRequest;
  /** A curl command sending it again, the run's secrets named by their variables (curl.ts). */
  curl: string;
}

/** A request as the kit sent it: its URL, headers and body (a multipart body's files by name). */
export interface SentRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
  form?: [string, string | { fileName: string; type: string }][];
}
