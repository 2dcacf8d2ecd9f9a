// `npm run mock [-- --port 4010 --host 127.0.0.1]` (or PORT / HOST): a Prism mock of the bundle
// that answers like the sandbox server. Prism runs on an internal free port; a node:http front on
// the public port serves the API under the server's base path (`/2025-10-13`, from the bundle),
// forwards to Prism without it (headers included, so `Prefer: code=404` / `example=...` work),
// and turns the rejections Prism writes itself (problem+json bodies, or an example body picked
// for a request it flagged in `sl-violations`) into the server's error body and status
// (scripts/mock/translate.ts). Answers taken from the spec's examples pass through unchanged.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { type IncomingMessage, type ServerResponse } from 'node:http';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { startPrism } from '../contract-tests/support/prism-process.ts';
import { DEFAULT_HTTP_LIMITS } from '../server/http/http-limits.ts';
import { createHttpServer } from '../server/http/http-server.ts';
import {
  basePathOf,
  fromProblem,
  fromViolations,
  invalidJson,
  parseViolations,
  routeNotFound,
  unknownQueryParameters,
  type Bundle,
  type MockError,
  type Problem,
} from './mock/translate.ts';

const root = resolve(import.meta.dirname, '..');
const generated = join(root, 'generated');
const bundle = JSON.parse(readFileSync(join(generated, 'openapi.json'), 'utf8')) as Bundle;
const basePath = basePathOf(bundle);

const { values: args } = parseArgs({ options: { port: { type: 'string' }, host: { type: 'string' } } });
const port = Number(args.port ?? process.env.PORT ?? 4010);
const host = args.host ?? process.env.HOST ?? '127.0.0.1';
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`mock: --port / PORT must be a port number, got ${args.port ?? process.env.PORT}`);
  process.exit(2);
}

// ---- Prism, on an internal port -------------------------------------------------------------

// Prism's own process group: stopping the mock stops Prism and whatever it forked.
const prism = await startPrism(['mock', join(generated, 'openapi.yaml'), '--no-cors']).catch((err: unknown) => {
  console.error(`mock: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
const prismOrigin = prism.origin;

let stopping = false;
process.on('exit', () => prism.stop());
void prism.exited.then((how) => {
  if (stopping) return;
  console.error(`mock: Prism exited (${how}):\n${prism.output()}`);
  process.exit(1);
});

// ---- the front ------------------------------------------------------------------------------

const FILES: Record<string, { file: string; type: string }> = {
  '/docs': { file: 'docs.html', type: 'text/html; charset=utf-8' },
  '/openapi.yaml': { file: 'openapi.yaml', type: 'application/yaml' },
  '/openapi.json': { file: 'openapi.json', type: 'application/json' },
};
// Not forwarded: hop-by-hop headers, and what fetch recomputes or has already undone.
const DROPPED = new Set(['host', 'connection', 'keep-alive', 'transfer-encoding', 'content-length', 'content-encoding', 'upgrade']);

function sendError(res: ServerResponse, e: MockError): void {
  res.writeHead(e.status, e.headers).end(JSON.stringify(e.body));
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const method = req.method ?? 'GET';
  const url = new URL(req.url ?? '/', 'http://mock');
  if (url.pathname === '/' && method === 'GET') return void res.writeHead(302, { location: '/docs' }).end();
  const file = FILES[url.pathname];
  if (file !== undefined && method === 'GET') return void res.writeHead(200, { 'content-type': file.type }).end(readFileSync(join(generated, file.file)));
  if (!url.pathname.startsWith(`${basePath}/`)) return sendError(res, routeNotFound());
  const path = url.pathname.slice(basePath.length);

  const body = await readBody(req);
  // The server parses JSON before anything else: a broken body is 400 even without credentials
  // (and Prism would never answer it).
  if (/\bjson\b/i.test(req.headers['content-type'] ?? '') && body.length > 0) {
    try {
      JSON.parse(body.toString('utf8'));
    } catch {
      return sendError(res, invalidJson());
    }
  }

  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || DROPPED.has(name)) continue;
    headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  // Every answer of the contract is JSON, and the server sends JSON whatever `Accept` says.
  headers.set('accept', 'application/json');
  const answer = await fetch(`${prismOrigin}${path}${url.search}`, {
    method,
    headers,
    redirect: 'manual',
    ...(body.length > 0 && method !== 'GET' && method !== 'HEAD' ? { body } : {}),
  });
  const text = Buffer.from(await answer.arrayBuffer());

  const violations = parseViolations(answer.headers.get('sl-violations'));
  const unknownQuery = unknownQueryParameters(bundle, method, path, url.searchParams);
  if ((answer.headers.get('content-type') ?? '').startsWith('application/problem+json')) {
    let problem: Problem = {};
    try {
      problem = JSON.parse(text.toString('utf8')) as Problem;
    } catch {
      problem = { status: answer.status, detail: text.toString('utf8').slice(0, 500) };
    }
    return sendError(res, fromProblem(bundle, method, path, problem, violations));
  }
  if (violations.length > 0) return sendError(res, fromViolations(bundle, method, path, violations, unknownQuery));
  // Credentials are checked before the input, so only an answer Prism let through can be refused for them.
  if (unknownQuery.length > 0 && answer.status !== 401) return sendError(res, fromViolations(bundle, method, path, [], unknownQuery));

  const out: Record<string, string> = {};
  answer.headers.forEach((value, name) => {
    if (!DROPPED.has(name)) out[name] = value;
  });
  res.writeHead(answer.status, out).end(text);
}

// Like the server: its limits, and the HTTP layer's refusals in the error body (server/http/client-errors.ts).
const front = createHttpServer((req, res) => {
  const started = Date.now();
  // Like the server: every answer names its request.
  res.setHeader('X-Request-Id', randomUUID());
  res.on('finish', () => console.log(`${req.method} ${req.url} → ${res.statusCode} (${Date.now() - started} ms)`));
  handle(req, res).catch((err: unknown) => {
    console.error('mock: request failed:', err);
    if (!res.headersSent) sendError(res, { status: 500, body: { status: 500, code: 'INTERNAL_ERROR', message: 'Something went wrong on our side.' }, headers: { 'content-type': 'application/json' } });
    else res.destroy();
  });
}, DEFAULT_HTTP_LIMITS);
front.on('error', (err) => {
  console.error(`mock: cannot serve on ${host}:${port}: ${err.message}`);
  stopping = true;
  prism.stop();
  process.exit(1);
});

front.listen(port, host, () => {
  const address = front.address();
  const actual = typeof address === 'object' && address !== null ? address.port : port;
  const origin = `http://${host.includes(':') ? `[${host}]` : host}:${actual}`;
  // The server's start line, for the mock: `API <url>  docs <url>  prism <url>`.
  console.log(`API ${origin}${basePath}  docs ${origin}/docs  prism ${prismOrigin} (mock of ${bundle.info.version}: the spec's examples; Prefer: code=<status> or example=<name> picks another)`);
});

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    stopping = true;
    prism.stop();
    front.close();
    front.closeAllConnections();
    process.exit(0);
  });
}
