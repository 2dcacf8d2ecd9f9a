// Handler types derived from the generated operation types: a handler gets its operation's typed
// path, query and body, and must return one of its documented success responses. Errors are thrown
// as ApiError. The map in server/handlers.ts must name every operationId of the spec.
import type { Logger } from 'pino';
import type { operations } from '../../generated/openapi.js';
import type { Db } from '../db/database.ts';

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

export interface UploadedFile {
  fieldname: string;
  originalname: string;
  mimetype: string;
  size: number;
  buffer: Buffer;
}

export type Permission = 'VIEW' | 'TRANSACT' | 'MANAGE';

export type Principal =
  | { kind: 'token'; credentialId: string; platformId: string; permissions: Permission[] }
  | { kind: 'agent'; credentialId: string; platformId: string; customerId: string; permissions: string[] };

export interface OperationRequest<K extends OperationId> {
  path: Parameters<K> extends { path: infer P } ? (P extends undefined ? Record<string, never> : NonNullable<P>) : Record<string, never>;
  query: Parameters<K> extends { query?: infer Q } ? NonNullable<Q> : Record<string, never>;
  headers: Record<string, string | undefined>;
  body: Op<K> extends { requestBody?: infer R } ? BodyOf<NonNullable<R>> : undefined;
  files: UploadedFile[];
}

type Success = 200 | 201 | 202 | 204;
type Responses<K extends OperationId> = Op<K>['responses'];
export type OperationResult<K extends OperationId> = {
  [S in keyof Responses<K> & Success]: { status: S; body: BodyOf<Responses<K>[S]>; headers?: Record<string, string> };
}[keyof Responses<K> & Success];

export interface HandlerContext {
  /** The request's database handle: a transaction for every operation that writes. */
  db: Db;
  principal: Principal;
  log: Logger;
}

export type Handler<K extends OperationId> = (req: OperationRequest<K>, ctx: HandlerContext) => Promise<OperationResult<K>>;

/** Marks an operation that this server does not implement yet: it answers 501 NOT_IMPLEMENTED. */
export const notImplemented = Symbol('notImplemented');
export type NotImplemented = typeof notImplemented;

export type OperationHandlers = { [K in OperationId]: Handler<K> | NotImplemented };
export type AreaHandlers<K extends OperationId> = { [P in K]: Handler<P> | NotImplemented };
