// Runs the operation express-openapi-validator matched, in explicit stages:
//   1. authenticate and authorize (the validator's security stage calls auth.ts: it sets the
//      principal and checks the permission in `x-permission`, before any 400 and any 501)
//   2. read input    (decoded path ids, typed query, body; NULs, lone surrogates, non-finite numbers refused)
//   3. idempotency   (Idempotency-Key: the key is claimed and the response stored in the work's own transaction)
//   4. transaction   (one per write; reads run without; handlers marked withoutTransaction get the
//                    pool and open transactions of their own)
//   5. check result  (against the contract, before commit: a 500 never leaves a committed write)
//   6. after commit  (tasks the services handed over: waking the job runner, never inside the transaction)
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Kysely } from 'kysely';
import type { RequestContext, Runtime } from '../context/context.ts';
import { notImplemented, type OperationHandlers, type OperationId, type OwnTransactionsContext, type UploadedFile } from '../context/handler-types.ts';
import type { Database } from '../db/schema.ts';
import { isConnectionLoss, rememberLossSettledByRerun } from '../db/lost-connections.ts';
import { retryTransaction } from '../db/transaction-retry.ts';
import { collectingContext, runTasks, unitOfWork } from '../context/unit-of-work.ts';
import { platformClock } from '../clock/clock.service.ts';
import type { Clock } from '../shared/clock.ts';
import { claimKey, rememberResponse, requestFingerprint, type KeyScope, type StoredResponse } from '../idempotency/idempotency.service.ts';
import { ApiError, internalError, invalidField } from '../shared/errors.ts';
import { PUBLIC, type Principal } from '../shared/principal.ts';
import { principalOf } from './auth.ts';
import { isAbandoned } from './client-errors.ts';
import { refuseUnparsableBody } from './json-body.ts';
import type { OperationInfo } from './contract-index.ts';
import { toApiError } from './error-handler.ts';
import { assertSafe, hasBody, rawQuery, typedQuery } from './request-input.ts';
import type { ResponseValidator } from './response-validator.ts';

interface MatchedOperation {
  operationId: OperationId;
  'x-permission'?: string;
  'x-agent-permission'?: string;
  security?: unknown[];
}

interface OpenApiRequest extends Request {
  openapi?: { schema: MatchedOperation; pathParams: Record<string, string> };
}

type Result = StoredResponse;
type Task = () => void | Promise<void>;

export interface DispatcherOptions {
  runtime: Runtime;
  db: Kysely<Database>;
  handlers: OperationHandlers;
  operations: Map<string, OperationInfo>;
  /** Checks every result against the contract before commit (development and tests). */
  responseValidator: ResponseValidator | undefined;
}

interface HandlerInput {
  path: Record<string, string>;
  query: Record<string, unknown>;
  headers: Record<string, string | undefined>;
  source: string;
  body: unknown;
  files: UploadedFile[];
}

function readInput(req: OpenApiRequest, info: OperationInfo): HandlerInput {
  const path = req.openapi?.pathParams ?? {};
  const files = (req.files as UploadedFile[] | undefined) ?? [];
  for (const [name, value] of Object.entries(path)) assertSafe(value, `path.${name}`);
  const query = rawQuery(req.originalUrl);
  for (const [name, value] of Object.entries(query)) assertSafe(value, `query.${name}`);
  assertSafe(req.body, '/');
  files.forEach((f) => assertSafe(f.originalname, `/${f.fieldname}`));
  if (info.bodyRequired && (req.body === undefined || !hasBody(req))) throw invalidField('/', 'This operation needs a request body.', 'required');
  return {
    path,
    query: typedQuery(query, info.parameters),
    headers: req.headers as Record<string, string | undefined>,
    // Read only by the operations that throttle by address: Express works req.ip out on every read.
    get source() {
      return req.ip ?? '';
    },
    body: req.body,
    files,
  };
}

function send(res: Response, result: Result, serialized: string | undefined, replayed = false): void {
  for (const [name, value] of Object.entries(result.headers)) res.setHeader(name, value);
  if (replayed) res.setHeader('Idempotent-Replayed', 'true');
  res.status(result.status);
  if (serialized === undefined) {
    res.end();
    return;
  }
  // Written directly: Express's send() re-parses the content type to add a charset, and checks
  // freshness against an ETag and a Last-Modified this API never sets. Node sends no body to HEAD.
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(serialized));
  res.end(serialized);
}

const serialize = (result: Result): string | undefined => (result.body === undefined || result.status === 204 ? undefined : JSON.stringify(result.body));

type Returned = Partial<Result> & { status: number };
type AnyHandler = (req: HandlerInput, ctx: RequestContext) => Promise<Returned>;
type AnyOwnTransactionsHandler = (req: HandlerInput, ctx: OwnTransactionsContext) => Promise<Returned>;

export function dispatcher({ runtime, db, handlers, operations, responseValidator }: DispatcherOptions): RequestHandler {
  /** A handler's result checked against the contract: stage 5, before any commit. */
  const checked = (op: MatchedOperation, info: OperationInfo, returned: Returned) => {
    const result: Result = { status: returned.status, headers: returned.headers ?? {}, body: returned.body };
    const problems = responseValidator?.check(info, result.status, result.body) ?? [];
    if (problems.length > 0) {
      runtime.log.error({ operationId: op.operationId, status: result.status, problems }, 'response does not match the contract; rolled back');
      throw internalError();
    }
    return { result, serialized: serialize(result) };
  };

  /**
   * What a handler receives: the runtime on the caller's platform's clock, `conn` (the request's
   * transaction, or the pool), who asks, and its after-commit tasks.
   */
  const contextOf = (conn: RequestContext['db'], principal: Principal, clock: Clock, tasks: Task[]): RequestContext => ({
    ...runtime,
    clock,
    db: conn,
    afterCommit: (task) => void tasks.push(task),
    principal,
    platformId: principal.platformId,
  });

  /** Runs the handler with `conn` (the request's transaction, or the pool for a read) and checks its result. */
  const execute = async (op: MatchedOperation, info: OperationInfo, input: HandlerInput, principal: Principal, clock: Clock, conn: RequestContext['db'], tasks: Task[]) =>
    checked(op, info, await (handlers[op.operationId] as AnyHandler)(input, contextOf(conn, principal, clock, tasks)));

  /** Runs a withoutTransaction handler: the pool, and transactions of its own on request. */
  const executeOutside = async (op: MatchedOperation, info: OperationInfo, input: HandlerInput, principal: Principal, clock: Clock, handler: AnyOwnTransactionsHandler, tasks: Task[]) => {
    const { platformId } = principal;
    const ctx: OwnTransactionsContext = {
      ...contextOf(db, principal, clock, tasks),
      transaction: (work) => unitOfWork({ ...runtime, clock }, db, (uow) => work({ ...uow, principal, platformId })),
    };
    return checked(op, info, await handler(input, ctx));
  };

  return async (req: OpenApiRequest, res: Response, next: NextFunction) => {
    const op = req.openapi?.schema;
    if (op === undefined) return next();
    // Its connection was refused (the 408 of a body that came too late): that was its answer, and
    // the client was told it did not run.
    if (isAbandoned(req)) return;
    try {
      // `security: []` (redeeming a device code): no credentials, nobody in particular.
      const principal = principalOf(req) ?? (Array.isArray(op.security) && op.security.length === 0 ? PUBLIC : undefined);
      // The security stage refused it already on operations that need credentials.
      refuseUnparsableBody(req);
      const handler = handlers[op.operationId];
      if (handler === notImplemented) {
        // Sent raw: 501 is not a documented response of the operation.
        const error = new ApiError(501, 'NOT_IMPLEMENTED', `${op.operationId} is part of the contract but not implemented by this server yet.`);
        res.status(501).type('application/json').send(JSON.stringify(error.body()));
        return;
      }
      const info = operations.get(op.operationId);
      if (info === undefined || principal === undefined) throw new Error(`${op.operationId}: no contract entry or no principal`);
      const input = readInput(req, info);
      const tasks: Task[] = [];
      // The platform's sandbox clock (server/clock/): nobody's on the one operation without credentials.
      const clock = principal.platformId === '' ? runtime.clock : await platformClock({ db, clock: runtime.clock }, principal.platformId);

      if (typeof handler === 'object') {
        const { result, serialized } = await executeOutside(op, info, input, principal, clock, handler.outsideTransaction as AnyOwnTransactionsHandler, tasks);
        await runTasks(runtime, tasks);
        return send(res, result, serialized);
      }
      if (req.method === 'GET') {
        const { result, serialized } = await execute(op, info, input, principal, clock, db, tasks);
        await runTasks(runtime, tasks);
        return send(res, result, serialized);
      }

      const key = info.takesIdempotencyKey ? input.headers['idempotency-key'] : undefined;
      if (key === undefined) {
        const { result, serialized } = await retryTransaction(() => {
          tasks.length = 0;
          return db.transaction().execute((trx) => execute(op, info, input, principal, clock, trx, tasks));
        });
        await runTasks(runtime, tasks);
        return send(res, result, serialized);
      }

      const scope: KeyScope = { credentialId: principal.credentialId, operationId: op.operationId, key };
      const fingerprint = requestFingerprint({ operationId: op.operationId, path: input.path, query: input.query, body: input.body });
      // A deadlock or a stale plan (transaction-retry.ts) rolls the whole transaction back, key
      // claim included, and it runs again. So does one whose COMMIT was lost with its connection,
      // whether it committed or not: the key settles it. If it did, the rerun finds the answer it
      // stored, which is this request's own (not a replay of an earlier one); if not, the key is
      // free and the work runs again. Without it, the request would be answered 500 either way.
      let commitLost = false;
      /** Commits; `stored`: what it commits is an answer stored for the key (by this request, unless it is a replay). */
      const commit = async (trx: { commit(): { execute(): Promise<void> } }, stored: boolean) => {
        try {
          await trx.commit().execute();
        } catch (err) {
          if (isConnectionLoss(err)) {
            if (stored) commitLost = true;
            rememberLossSettledByRerun(err);
          }
          throw err;
        }
      };
      await retryTransaction(async () => {
        tasks.length = 0;
        const trx = await db.startTransaction().execute();
        try {
          const keyCtx = collectingContext(runtime, trx).ctx;
          const stored = await claimKey(keyCtx, scope, fingerprint);
          if (stored !== undefined) {
            await commit(trx, false);
            return send(res, stored, serialize(stored), !commitLost);
          }
          const work = await trx.savepoint('work').execute();
          try {
            const { result, serialized } = await execute(op, info, input, principal, clock, work, tasks);
            // A 202 is a signed-retry challenge: it changes nothing the key protects, and the key
            // stays free for the signed retry, whose answer is the one stored.
            if (result.status !== 202) await rememberResponse(keyCtx, scope, fingerprint, result);
            await commit(trx, result.status !== 202);
            await runTasks(runtime, tasks);
            return send(res, result, serialized);
          } catch (err) {
            const { error } = toApiError(err, req);
            // A 4xx is part of the key's history (its work undone); a 5xx is not stored, so it can be
            // retried, nor a 401 (a missing or wrong signature or proof authorized nothing), so the
            // corrected request can carry the same key.
            if (error.status >= 500 || error.status === 401) throw err;
            await work.rollbackToSavepoint('work').execute();
            await rememberResponse(keyCtx, scope, fingerprint, { status: error.status, headers: error.extra?.headers ?? {}, body: error.body() });
            await commit(trx, true);
            throw err;
          }
        } finally {
          // Whatever went wrong first is what the caller hears about, not a failed rollback.
          if (!trx.isCommitted && !trx.isRolledBack) await trx.rollback().execute().catch((err: unknown) => runtime.log.warn({ err }, 'rollback failed'));
        }
      });
    } catch (err) {
      next(err);
    }
  };
}
