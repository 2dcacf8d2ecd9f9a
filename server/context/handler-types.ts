// Handler types derived from the generated operation types: a handler gets its operation's typed
// path, query and body, and must return one of its documented success responses. Errors are thrown
// as ApiError. The map in server/operations.ts must name every operationId of the spec.
import type { Kysely } from 'kysely';
import type { operations } from '../../generated/openapi.js';
import type { Database } from '../db/schema.ts';
import type { RequestContext } from './context.ts';
import type { UploadedFile } from '../shared/uploaded-file.ts';

/** Webhook operations (`receive<Event>Webhook`) are sent by the service, not served: no handler. */
type WebhookOperationId = Extract<keyof operations, `receive${string}Webhook`>;
export type OperationId = Exclude<keyof operations, WebhookOperationId>;
type Op<K extends OperationId> = operations[K];
type Parameters<K extends OperationId> = Op<K> extends { parameters: infer P } ? P : never;

type BodyOf<T> = T extends { content: { 'application/json': infer B } }
  ? B
  : T extends { content: { 'multipart/form-data': infer M } }
    ? M
    : undefined;

export type { UploadedFile } from '../shared/uploaded-file.ts';

export interface OperationRequest<K extends OperationId> {
  path: Parameters<K> extends { path: infer P } ? (P extends undefined ? Record<string, never> : NonNullable<P>) : Record<string, never>;
  query: Parameters<K> extends { query?: infer Q } ? NonNullable<Q> : Record<string, never>;
  headers: Record<string, string | undefined>;
  /** The address the request came from (Express's `req.ip`: the peer's, unless 'trust proxy' is set). */
  source: string;
  body: Op<K> extends { requestBody?: infer R } ? BodyOf<NonNullable<R>> : undefined;
  files: UploadedFile[];
}

type Success = 200 | 201 | 202 | 204;
type Responses<K extends OperationId> = Op<K>['responses'];
export type OperationResult<K extends OperationId> = {
  [S in keyof Responses<K> & Success]: { status: S; body: BodyOf<Responses<K>[S]>; headers?: Record<string, string> };
}[keyof Responses<K> & Success];

export type Handler<K extends OperationId> = (req: OperationRequest<K>, ctx: RequestContext) => Promise<OperationResult<K>>;

/** What a handler running outside the request's transaction gets (withoutTransaction). */
export interface OwnTransactionsContext extends RequestContext {
  /** The pool, not a transaction: each statement commits on its own (a failure counted stays counted). */
  db: Kysely<Database>;
  /**
   * Runs `work` in a transaction of its own, run again after a deadlock; the tasks it hands to
   * `afterCommit` run once it has committed.
   */
  transaction<T>(work: (ctx: RequestContext) => Promise<T>): Promise<T>;
}

export type OwnTransactionsHandler<K extends OperationId> = (req: OperationRequest<K>, ctx: OwnTransactionsContext) => Promise<OperationResult<K>>;

/** A handler the dispatcher runs outside the request's transaction. */
export interface OutsideTransaction<K extends OperationId> {
  readonly outsideTransaction: OwnTransactionsHandler<K>;
}

/**
 * A handler that must not run inside the request's database transaction: it waits on the network
 * (the sandbox test webhook), or must commit something even when it fails (a wrong wallet proof,
 * an unknown code is counted). It gets the pool and opens transactions of its own.
 */
export const withoutTransaction = <K extends OperationId>(handler: OwnTransactionsHandler<K>): OutsideTransaction<K> => ({ outsideTransaction: handler });

/** Marks an operation that this server does not implement yet: it answers 501 NOT_IMPLEMENTED. */
export const notImplemented = Symbol('notImplemented');
export type NotImplemented = typeof notImplemented;

export type OperationHandlers = { [K in OperationId]: Handler<K> | OutsideTransaction<K> | NotImplemented };
export type AreaHandlers<K extends OperationId> = { [P in K]: Handler<P> | OutsideTransaction<P> | NotImplemented };

type UnionToIntersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;

/**
 * Joins the areas' handler maps into one. Two areas claiming one operationId is a wiring mistake
 * the type of a spread would silently resolve (the last one wins), so it fails at start-up.
 */
export function joinAreas<A extends object[]>(...areas: A): UnionToIntersection<A[number]> {
  const joined: Record<string, unknown> = {};
  for (const area of areas) {
    for (const [operationId, handler] of Object.entries(area)) {
      if (operationId in joined) throw new Error(`operation ${operationId} is claimed by two areas`);
      joined[operationId] = handler;
    }
  }
  return joined as UnionToIntersection<A[number]>;
}
