// The Express application: docs and spec files, JSON parsing, express-openapi-validator (request
// validation and security always, response validation in development and tests), the operation
// dispatcher and the error handler.
import { resolve } from 'node:path';
import express, { type Express } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Database } from './db/schema.ts';
import { handlers } from './handlers.ts';
import { securityHandlers } from './http/auth.ts';
import { dispatcher } from './http/dispatcher.ts';
import { errorHandler, notFound } from './http/errors.ts';

const generated = resolve(import.meta.dirname, '..', 'generated');
export const BASE_PATH = '/2025-10-13';
const MAX_DOCUMENT_BYTES = 10 * 1024 * 1024;

export interface AppOptions {
  db: Kysely<Database>;
  log: Logger;
  validateResponses: boolean;
}

export function createApp({ db, log, validateResponses }: AppOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);

  app.use((req, res, next) => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      log.info({ method: req.method, url: req.originalUrl, status: res.statusCode, ms: Number(process.hrtime.bigint() - started) / 1e6 }, 'request');
    });
    next();
  });

  app.get('/', (_req, res) => res.redirect('/docs'));
  app.get('/docs', (_req, res) => res.sendFile(resolve(generated, 'docs.html')));
  app.get('/openapi.yaml', (_req, res) => res.type('application/yaml').sendFile(resolve(generated, 'openapi.yaml')));
  app.get('/openapi.json', (_req, res) => res.sendFile(resolve(generated, 'openapi.json')));

  app.use(BASE_PATH, express.json({ limit: '1mb' }));
  app.use(
    OpenApiValidator.middleware({
      apiSpec: resolve(generated, 'openapi.yaml'),
      validateRequests: { allowUnknownQueryParameters: false, coerceTypes: true, allErrors: true },
      validateResponses: validateResponses ? { removeAdditional: false } : false,
      validateSecurity: { handlers: securityHandlers(db) },
      validateFormats: true,
      ignoreUndocumented: false,
      ignorePaths: (path: string) => !path.startsWith(`${BASE_PATH}/`),
      // UTF-8 file names (multer reads them as latin1 otherwise).
      fileUploader: { limits: { fileSize: MAX_DOCUMENT_BYTES, files: 1 }, defParamCharset: 'utf8' },
    }),
  );
  app.use(dispatcher(db, handlers, log));
  app.use((_req, _res, next) => next(notFound('ROUTE_NOT_FOUND', 'No such route.')));
  app.use(errorHandler(log));
  return app;
}
