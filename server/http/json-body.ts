// JSON bodies: parsed before express-openapi-validator, which needs them, but a body that is not
// JSON is answered only once the caller is known to be allowed to call the operation. Otherwise a
// caller without credentials, or without the permission, would learn how the operation reads its
// input (401 and 403 come before any 400, as for every other kind of bad input).
import express, { type Request, type RequestHandler } from 'express';
import { invalidField } from '../shared/errors.ts';

const unparsable = new WeakSet<Request>();

export function jsonBody(options: { limit: string }): RequestHandler {
  const parse = express.json(options);
  return (req, res, next) =>
    parse(req, res, (err?: unknown) => {
      if ((err as { type?: string } | undefined)?.type !== 'entity.parse.failed') return next(err);
      unparsable.add(req);
      req.body = undefined;
      next();
    });
}

/** The 400 a body that is not JSON gets (here, and from the error handler for other routes). */
export const notJson = () => invalidField('/', 'The request body is not valid JSON.');

/** Throws the 400 a body that was not JSON deserves; called once the caller is authorized. */
export function refuseUnparsableBody(req: Request): void {
  if (unparsable.has(req)) throw notJson();
}
