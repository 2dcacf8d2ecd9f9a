// The documented statuses no test produces, each with the reason. The coverage gate fails on any
// other documented status no test produced, and on an exception that is no longer needed.
export interface StatusException {
  /** An operationId, or `*` for every operation that documents the status. */
  operation: string;
  status: string;
  reason: string;
  /** Produced on this target only: excepted when the gate runs without it. */
  unlessTarget?: 'postgres';
}

export const statusExceptions: StatusException[] = [
  { operation: '*', status: '500', reason: 'an unexpected failure of the server; the fuzzer checks that no request produces one' },
  {
    operation: '*',
    status: '409',
    reason: 'IDEMPOTENCY_KEY_IN_USE needs a duplicate while the first request runs, which PGlite (one connection) cannot overlap; the gate over PostgreSQL requires every 409',
    unlessTarget: 'postgres',
  },
];
