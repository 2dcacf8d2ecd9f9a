// A connection lost between statements (PostgreSQL restarted, pg_terminate_backend, a network cut,
// or a pooled connection cut while idle and handed out before the pool heard of it): the client is
// closed so the pool drops it when it comes back, and its error remembers whether the transaction
// it was in had sent its COMMIT. One that had not cannot have committed (PostgreSQL rolls back the
// transaction of a session that ends), so it is run again whole on a fresh connection, as a
// deadlock's is (transaction-retry.ts); one whose COMMIT was lost with the connection is not, since
// it may have committed.

/** SQLSTATEs of a session the server ended (admin or crash shutdown, not accepting connections) or of a broken connection (class 08). */
const LOST_STATES = /^(57P0[123]|08...)$/;
/** What `pg` and Node say of a socket that is gone. */
const LOST_MESSAGES = /Connection terminated|not queryable|Client was closed|ECONNRESET|EPIPE|ECONNREFUSED/;

export function isConnectionLoss(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const { code, message } = err as { code?: unknown; message?: unknown };
  return (typeof code === 'string' && (LOST_STATES.test(code) || /^(ECONNRESET|EPIPE|ECONNREFUSED)$/.test(code))) || (typeof message === 'string' && LOST_MESSAGES.test(message));
}

/** Errors of a connection lost before its transaction sent COMMIT. */
const lostUncommitted = new WeakSet<object>();

/** Whether `err` is a connection lost in a transaction that had not sent its COMMIT: it may run again, whole, elsewhere. */
export const lostBeforeCommit = (err: unknown): boolean => typeof err === 'object' && err !== null && lostUncommitted.has(err);

/** What `pg` answers for a statement it refused to send, its connection being known lost or closed: that statement never left. */
const NEVER_SENT = /is not queryable/;

export const neverSent = (err: unknown): boolean => typeof err === 'object' && err !== null && NEVER_SENT.test(String((err as { message?: unknown }).message));

/** Remembers a lost connection's error as one of a transaction that cannot have committed (its COMMIT not sent, or refused unsent). */
export function rememberLossBeforeCommit(err: unknown): void {
  if (typeof err === 'object' && err !== null) lostUncommitted.add(err);
}

/**
 * Remembers a connection lost with its COMMIT, so that whether it committed is unknown, as one whose
 * transaction may run again all the same, because the caller's rerun cannot repeat its effect: an
 * Idempotency-Key's claim finds the answer the first run stored if it committed, and finds the key
 * free if it did not (http/dispatcher.ts).
 */
export function rememberLossSettledByRerun(err: unknown): void {
  rememberLossBeforeCommit(err);
}

/** How a statement moves a connection's transaction: started, its COMMIT sent, or neither. */
export function transactionStep(text: string): 'begin' | 'commit' | undefined {
  if (/^\s*(begin|start transaction)\b/i.test(text)) return 'begin';
  if (/^\s*(commit|end)\b/i.test(text)) return 'commit';
  return undefined;
}
