// The Express application: docs and spec files, JSON parsing, express-openapi-validator (routing,
// request validation and security), the operation dispatcher and the error handler.
import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import express, { type Express } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import type { Kysely } from 'kysely';
import { authenticateAgent } from './agents/agent-auth.ts';
import type { Runtime } from './context/context.ts';
import type { Database } from './db/schema.ts';
import { securityHandlers } from './http/auth.ts';
import { indexOperations } from './http/contract-index.ts';
import { applyDependencyPatches } from './dependency-patches/index.ts';
import { bareRouter } from './http/bare-router.ts';
import { dispatcher } from './http/dispatcher.ts';
import { errorHandler } from './http/error-handler.ts';
import { jsonBody } from './http/json-body.ts';
import { encodeReservedQueryCharacters } from './http/query-encoding.ts';
import { ResponseValidator } from './http/response-validator.ts';
import { TEST_CONTROL_PATH, testControlRoutes, withFaultHooks } from './http/test-control.ts';
import { requestValidatorSpec, validatorSpec } from './http/validator-spec.ts';
import { checkLedger } from './ledger/ledger-check.ts';
import { handlers } from './operations.ts';
import { sentWalletEmails } from './wallet-auth/wallet-auth.service.ts';
import { unitOfWork } from './context/unit-of-work.ts';
import { createSandboxPlatform } from './platform/platform.service.ts';
import type { ShiftableClock } from './shared/clock.ts';
import { isValidDate, isValidDateTime } from './shared/dates.ts';
import { notFound } from './shared/errors.ts';
import { cachedBasic, verifyBasic } from './tokens/tokens.service.ts';

const generated = resolve(import.meta.dirname, '..', 'generated');
export const BASE_PATH = '/2025-10-13';
const MAX_DOCUMENT_BYTES = 10 * 1024 * 1024;
/**
 * The text parts of an upload: the schemas have six short fields (at most 200 characters), so
 * these bound a multipart body to the file plus ~1 MiB; multer's defaults (1 MB per field, any
 * number of fields) would buffer any amount of text in memory before validation refused it.
 */
const MAX_UPLOAD_FIELDS = 16;
const MAX_UPLOAD_FIELD_BYTES = 64 * 1024;

export interface AppOptions {
  runtime: Runtime & { clock: ShiftableClock };
  db: Kysely<Database>;
  validateResponses: boolean;
  /** False only in `npm run bench`'s comparison run (see bare-router.ts). */
  validateRequests?: boolean;
  /** Express's 'trust proxy': whose X-Forwarded-For gives a request's address (config.ts). */
  trustProxy?: boolean | number | string[];
  testControls: boolean;
}

export function createApp({ runtime, db, validateResponses, validateRequests = true, trustProxy = false, testControls }: AppOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  // A request's address keys the device-code guessing limit: behind a load balancer every request
  // would otherwise come from the balancer's address, and all would share one limit.
  app.set('trust proxy', trustProxy);
  app.set('etag', false);

  app.use((req, res, next) => {
    // One id per request, on the response and in its log lines, so a caller can quote it to support.
    const requestId = randomUUID();
    res.setHeader('X-Request-Id', requestId);
    // The access line, when it is logged at all: a listener per request is work a silent log does not need.
    if (runtime.log.isLevelEnabled('info')) {
      const started = process.hrtime.bigint();
      res.on('finish', () => {
        runtime.log.info({ requestId, method: req.method, url: req.originalUrl, status: res.statusCode, ms: Number(process.hrtime.bigint() - started) / 1e6 }, 'request');
      });
    }
    next();
  });

  if (testControls) app.use(TEST_CONTROL_PATH, testControlRoutes(runtime.clock, runtime.wakeJobs, {
        checkLedger: () => checkLedger(db),
        walletEmails: (id) => sentWalletEmails(db, id),
        createPlatform: (name) => unitOfWork(runtime, db, (ctx) => createSandboxPlatform(ctx, name)),
      }));

  applyDependencyPatches();
  const security = securityHandlers(runtime, db, { basicCached: cachedBasic, basic: verifyBasic, bearer: authenticateAgent });
  const spec = validatorSpec();
  const operations = indexOperations(spec);
  app.use(BASE_PATH, encodeReservedQueryCharacters, jsonBody({ limit: '1mb' }));
  app.use(
    validateRequests
      ? OpenApiValidator.middleware({
          apiSpec: requestValidatorSpec(spec) as never,
          // The bundle is linted and checked for drift in CI; checking it against the OpenAPI
          // schema again at every start would slow every start (bench/README.md).
          validateApiSpec: false,
          // Query, path and header strings are read by their schema's type; JSON bodies never are.
          validateRequests: { allowUnknownQueryParameters: false, coerceTypes: false, allErrors: true },
          // Responses are checked by the dispatcher before its transaction commits.
          validateResponses: false,
          validateSecurity: { handlers: security },
          validateFormats: true,
          ajvFormats: { mode: 'full' },
          formats: { date: isValidDate, 'date-time': isValidDateTime },
          ignoreUndocumented: false,
          ignorePaths: (path: string) => !path.startsWith(`${BASE_PATH}/`),
          // UTF-8 file names (multer reads them as latin1 otherwise).
          fileUploader: { limits: { fileSize: MAX_DOCUMENT_BYTES, files: 1, fields: MAX_UPLOAD_FIELDS, fieldSize: MAX_UPLOAD_FIELD_BYTES, parts: MAX_UPLOAD_FIELDS + 1 }, defParamCharset: 'utf8' },
      })
      : bareRouter(spec, BASE_PATH, security),
  );
  const served = testControls ? withFaultHooks(handlers) : handlers;
  app.use(dispatcher({ runtime, db, handlers: served, operations, responseValidator: validateResponses ? new ResponseValidator(spec) : undefined }));
  // The documentation, after the API: no API request walks past these routes.
  app.get('/', (_req, res) => res.redirect('/docs'));
  app.get('/docs', (_req, res) => res.sendFile(resolve(generated, 'docs.html')));
  app.get('/openapi.yaml', (_req, res) => res.type('application/yaml').sendFile(resolve(generated, 'openapi.yaml')));
  app.get('/openapi.json', (_req, res) => res.sendFile(resolve(generated, 'openapi.json')));
  app.use((_req, _res, next) => next(notFound('ROUTE_NOT_FOUND', 'No such route.')));
  app.use(errorHandler(runtime.log));
  return app;
}
