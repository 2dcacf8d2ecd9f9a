// What every check runs with: the implementation (requests checked against the contract), the run's
// unique prefix for the data it makes, what the implementation was found to offer, the webhook
// receiver, objects shared between checks, and what to undo at the end.
import { randomBytes, randomUUID } from 'node:crypto';
import { CheckFailure, expectations, type Expectations } from './failure.ts';
import { Http, type Reply, type RequestOptions } from './http.ts';
import type { WebhookHub } from './webhook-hub.ts';

export interface Capabilities {
  /** Why the implementation is taken for stateless (a mock), or undefined when it keeps state. */
  stateless: string | undefined;
  /** Why the sandbox operations cannot be used, or undefined when they can. */
  noSandbox: string | undefined;
  /** Why webhooks cannot be checked, or undefined when they can. */
  noWebhooks: string | undefined;
}

export interface WorldOptions {
  http: Http;
  prefix: string;
  /** A token of another platform of the same deployment, for the isolation checks. */
  otherPlatform: { clientId: string; clientSecret: string } | undefined;
  /** Bound on waits for delayed sandbox outcomes (a few seconds in the spec). */
  outcomeWaitMs: number;
}

export class World {
  readonly http: Http;
  readonly prefix: string;
  readonly otherPlatform: WorldOptions['otherPlatform'];
  readonly outcomeWaitMs: number;
  caps: Capabilities = { stateless: undefined, noSandbox: undefined, noWebhooks: undefined };
  webhooks: WebhookHub | undefined;
  /** Why the webhook set-up failed in a way the webhook checks must report. */
  webhookProblem: string | undefined;
  private readonly shared = new Map<string, Promise<unknown>>();
  private readonly undo: { what: string; run: () => Promise<unknown> }[] = [];
  readonly is: Expectations = expectations;

  constructor(options: WorldOptions) {
    this.http = options.http;
    this.prefix = options.prefix;
    this.otherPlatform = options.otherPlatform;
    this.outcomeWaitMs = options.outcomeWaitMs;
  }

  /** A name unique to this run and call: `<prefix>-<8 hex>`. */
  uid(): string {
    return `${this.prefix}-${randomBytes(4).toString('hex')}`;
  }

  /** A new Idempotency-Key. */
  key(): string {
    return randomUUID();
  }

  /** A request as the kit's token (or `options.as`), its answer checked against the contract. */
  call(method: string, path: string, options?: RequestOptions): Promise<Reply> {
    return this.http.call(method, path, options);
  }

  /** The body of an answer that must have `status`; anything else fails the check with `rule`. */
  expect<T = Record<string, unknown>>(reply: Reply, status: number, rule: string): T {
    if (reply.status !== status) throw new CheckFailure(rule, `${status}`, `${reply.status} ${reply.text.slice(0, 300)}`, reply);
    return reply.body as T;
  }

  /** An error answer with this status and `code` (the errors guide's catalogue). */
  expectError(reply: Reply, status: number, code: string | string[], rule: string): void {
    const codes = Array.isArray(code) ? code : [code];
    const actual = (reply.body as { code?: unknown } | undefined)?.code;
    if (reply.status !== status || !codes.includes(String(actual))) {
      throw new CheckFailure(rule, `${status} ${codes.join(' or ')}`, `${reply.status} ${String(actual ?? reply.text.slice(0, 200))}`, reply);
    }
  }

  /** `make` once per run under `key`, shared by every check that asks (a failure is shared too). */
  once<T>(key: string, make: () => Promise<T>): Promise<T> {
    let value = this.shared.get(key) as Promise<T> | undefined;
    if (value === undefined) {
      value = make();
      this.shared.set(key, value);
    }
    return value;
  }

  /** Something to undo when the run ends (deleting the tokens and agents it made, restoring the configuration). */
  cleanup(what: string, run: () => Promise<unknown>): void {
    this.undo.push({ what, run });
  }

  /** Undoes, last first; returns what could not be undone. */
  async finish(): Promise<string[]> {
    const problems: string[] = [];
    for (const { what, run } of this.undo.reverse()) {
      try {
        await run();
      } catch (error) {
        problems.push(`${what}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    this.undo.length = 0;
    return problems;
  }

  /** Polls `read` until `done` holds of its value, up to `timeoutMs`; returns the last value and whether it held. */
  async poll<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = this.outcomeWaitMs, everyMs = 250): Promise<{ value: T; met: boolean }> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = await read();
      if (done(value)) return { value, met: true };
      if (Date.now() > deadline) return { value, met: false };
      await new Promise((r) => setTimeout(r, everyMs));
    }
  }
}
