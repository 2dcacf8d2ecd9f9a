// Runs the handler of the operation express-openapi-validator matched: checks the permission,
// applies Idempotency-Key, wraps writes in one database transaction and sends the typed result.
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Database } from '../db/schema.ts';
import { authorize, principalOf } from './auth.ts';
import { ApiError, toApiError } from './errors.ts';
import { claim, complete, release, requestHash } from './idempotency.ts';
import { afterHandler } from './test-hooks.ts';
import { notImplemented, type HandlerContext, type OperationHandlers, type OperationId, type UploadedFile } from './operations.ts';

interface MatchedOperation {
  operationId: OperationId;
  'x-permission'?: string;
  parameters?: { name?: string; in?: string; $ref?: string }[];
}

interface OpenApiRequest extends Request {
  openapi?: { schema: MatchedOperation; pathParams: Record<string, string>; openApiRoute: string };
}

type Result = { status: number; body: unknown; headers?: Record<string, string> };

// The validator leaves shared parameters as $refs, so both forms are recognised.
const takesIdempotencyKey = (op: MatchedOperation) =>
  (op.parameters ?? []).some((p) => p.$ref === '#/components/parameters/IdempotencyKey' || (p.in === 'header' && p.name === 'Idempotency-Key'));

function send(res: Response, result: Result, replayed = false): void {
  for (const [name, value] of Object.entries(result.headers ?? {})) res.setHeader(name, value);
  if (replayed) res.setHeader('Idempotent-Replayed', 'true');
  res.status(result.status);
  if (result.body === undefined || result.status === 204) res.end();
  else res.json(result.body);
}

export function dispatcher(db: Kysely<Database>, handlers: OperationHandlers, log: Logger): RequestHandler {
  return async (req: OpenApiRequest, res: Response, next: NextFunction) => {
    const op = req.openapi?.schema;
    if (op === undefined) return next();
    const handler = handlers[op.operationId];
    const principal = principalOf(req);
    try {
      // Permissions first, so an operation not built yet still answers 403 to a token without them.
      authorize(principal, op);
      if (handler === notImplemented) {
        // Sent raw: 501 is not a documented response of the operation, so it bypasses response validation.
        const error = new ApiError(501, 'NOT_IMPLEMENTED', `${op.operationId} is part of the contract but not implemented by this server yet.`);
        res.status(501).type('application/json').send(JSON.stringify(error.body()));
        return;
      }
      const request = {
        path: req.openapi?.pathParams ?? {},
        query: req.query,
        headers: req.headers as Record<string, string | undefined>,
        body: req.body,
        files: (req.files as UploadedFile[] | undefined) ?? [],
      };
      const run = async (conn: HandlerContext['db']) => {
        const result = await (handler as (r: typeof request, c: HandlerContext) => Promise<Result>)(request, { db: conn, principal: principal as HandlerContext['principal'], log });
        await afterHandler(request.headers);
        return result;
      };

      if (req.method === 'GET') return send(res, await run(db));

      const key = req.headers['idempotency-key'];
      if (typeof key !== 'string' || !takesIdempotencyKey(op) || principal === undefined) {
        return send(res, await db.transaction().execute((trx) => run(trx)));
      }

      const scope = { credentialId: principal.credentialId, operationId: op.operationId, key };
      const claimed = await claim(db, scope, requestHash(req.method, req.originalUrl, req.body));
      if (claimed.kind === 'replay') return send(res, { status: claimed.status, body: claimed.body ?? undefined }, true);
      try {
        const result = await db.transaction().execute(async (trx) => {
          const r = await run(trx);
          await complete(trx, scope, r.status, r.body);
          return r;
        });
        return send(res, result);
      } catch (err) {
        const { error } = toApiError(err);
        // A 4xx outcome is part of the key's history; a 5xx is not, so the client can retry it.
        if (error.status < 500) {
          await complete(db, scope, error.status, error.body());
        } else {
          await release(db, scope);
        }
        throw err;
      }
    } catch (err) {
      next(err);
    }
  };
}
