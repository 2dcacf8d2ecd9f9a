// Every request of a bank run, as the servers answered it, and the invariants it broke. Keyed POSTs
// may be sent twice with the same Idempotency-Key (one after the other, or both at once to the two
// processes): the second must be the first's answer replayed byte for byte, or, while the first
// is still running, 409 IDEMPOTENCY_KEY_IN_USE.
import { call, type Cluster, type Reply } from '../support/cluster.ts';

/** The invariants a bank run checks; a violation names one. */
export type Invariant =
  | 'no-5xx'
  | 'documented-answer'
  | 'replay'
  | 'non-negative'
  | 'snapshot-total'
  | 'double-entry'
  | 'balanced-movements'
  | 'ledger-check'
  | 'conservation'
  | 'balances-match-requests'
  | 'one-effect-per-request'
  | 'settled';

export interface Violation {
  invariant: Invariant;
  detail: string;
}

export type Duplicate = 'none' | 'sequential' | 'concurrent';

export interface BankRequest {
  /** Which server process gets it (a duplicate goes to the other one). */
  via: number;
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
  key?: string;
  /** An agent's access token instead of the platform's Basic credentials. */
  bearer?: string;
  /** What the request is for, in violation messages. */
  label: string;
}

const isInUse = (reply: Reply) => reply.status === 409 && reply.body?.code === 'IDEMPOTENCY_KEY_IN_USE';
const isReplay = (reply: Reply) => reply.headers.get('idempotent-replayed') === 'true';

export class Journal {
  readonly violations: Violation[] = [];
  /** Requests sent, per status. */
  readonly statuses = new Map<number, number>();
  /** Duplicates answered as replays, and as 409 IDEMPOTENCY_KEY_IN_USE. */
  replays = 0;
  inUse = 0;

  private readonly cluster: Cluster;

  constructor(cluster: Cluster) {
    this.cluster = cluster;
  }

  violation(invariant: Invariant, detail: string): void {
    this.violations.push({ invariant, detail });
  }

  private note(request: BankRequest, reply: Reply): void {
    this.statuses.set(reply.status, (this.statuses.get(reply.status) ?? 0) + 1);
    if (reply.status >= 500) this.violation('no-5xx', `${request.label} (${request.method} ${request.path}): ${reply.status} ${reply.text.slice(0, 300)}`);
  }

  private async once(request: BankRequest, via: number): Promise<Reply> {
    const server = this.cluster.servers[via % this.cluster.servers.length];
    if (server === undefined) throw new Error('a cluster without servers');
    const headers = { ...(request.key === undefined ? {} : { 'Idempotency-Key': request.key }), ...(request.bearer === undefined ? {} : { Authorization: `Bearer ${request.bearer}` }) };
    const reply = await call(server, this.cluster.token, request.method, request.path, request.body, headers);
    this.note(request, reply);
    return reply;
  }

  /** Sends the request (and its duplicate); answers the original reply, the one that did the work. */
  async send(request: BankRequest, duplicate: Duplicate = 'none'): Promise<Reply> {
    if (duplicate !== 'none' && request.key === undefined) throw new Error(`${request.label}: a duplicate needs an Idempotency-Key`);
    const other = request.via + 1;
    const replies =
      duplicate === 'concurrent'
        ? await Promise.all([this.once(request, request.via), this.once(request, other)])
        : duplicate === 'sequential'
          ? [await this.once(request, request.via), await this.once(request, other)]
          : [await this.once(request, request.via)];
    if (duplicate === 'none') return replies[0] as Reply;
    const originals = replies.filter((r) => !isReplay(r) && !(duplicate === 'concurrent' && isInUse(r)));
    const [original] = originals;
    if (original === undefined || originals.length > 1) {
      this.violation('replay', `${request.label} sent twice (${duplicate}) with key ${request.key}: ${originals.length} original answers (${replies.map((r) => `${r.status} replayed=${isReplay(r)}`).join(', ')})`);
      return replies[0] as Reply;
    }
    for (const reply of replies.filter((r) => r !== original)) {
      if (isInUse(reply)) {
        this.inUse++;
      } else if (reply.status === original.status && reply.text === original.text) {
        this.replays++;
      } else {
        this.violation('replay', `${request.label} key ${request.key}: the replay ${reply.status} ${reply.text.slice(0, 200)} differs from the original ${original.status} ${original.text.slice(0, 200)}`);
      }
    }
    return original;
  }
}
