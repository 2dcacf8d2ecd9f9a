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
}
