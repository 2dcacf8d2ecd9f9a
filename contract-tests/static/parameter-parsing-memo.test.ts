// server/dependency-patches/parameter-parsing-memo.ts memoizes what express-openapi-validator works out about
// each parameter of the contract on every request, and skips the rest of its per-parameter loop
// where that changes nothing. The validator must then read and judge any
// query exactly as it did: the same requests, to the validator before the memo and after it, get
// the same status, the same query as the validator left it, and the same error.
import { once } from 'node:events';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import express, { type ErrorRequestHandler } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { memoizeValidatorParameterParsing } from '../../server/dependency-patches/parameter-parsing-memo.ts';
import { requestValidatorSpec, validatorSpec } from '../../server/http/validator-spec.ts';

const require = createRequire(import.meta.url);
const util = require(join(dirname(require.resolve('express-openapi-validator')), 'middlewares', 'parsers', 'util.js')) as { memoized?: true };

type Operation = { parameters?: { name: string; in: string }[] };
const spec = validatorSpec() as { servers?: { url: string }[]; paths: Record<string, Record<string, Operation>>; components: { parameters: Record<string, { name: string; in: string }> } };
const base = new URL(spec.servers?.[0]?.url ?? 'http://x/').pathname.replace(/\/$/, '');

/** Every GET with query parameters (a path parameter as a fixed id), with their names. */
const lists = Object.entries(spec.paths)
  .filter(([, item]) => item.get !== undefined)
  .map(([path, item]) => ({
    path: path.replace(/\{[^}]+\}/g, 'Customer:019542f5-b3e7-1d02-0000-000000000001'),
    names: (item.get?.parameters ?? [])
      .map((p) => ('$ref' in p ? spec.components.parameters[String(p.$ref).split('/').pop() as string] : p))
      .filter((p): p is { name: string; in: string } => p?.in === 'query')
      .map((p) => p.name),
  }))
  .filter((list) => list.names.length > 0);

/** The validator alone, answering what it made of the query. */
async function validatorApp(): Promise<{ ask(url: string): Promise<string>; close(): Promise<void> }> {
  const app = express();
  app.use(
    OpenApiValidator.middleware({
      apiSpec: requestValidatorSpec(validatorSpec()) as never,
      validateApiSpec: false,
      validateRequests: { allowUnknownQueryParameters: false, coerceTypes: false, allErrors: true },
      validateSecurity: false,
      validateFormats: true,
      ignorePaths: (path: string) => !path.startsWith(`${base}/`),
    }),
  );
  app.use((req, res) => void res.json({ query: req.query }));
  app.use(((err: { status?: number; message?: string }, _req, res, _next) => void res.status(err.status ?? 500).json({ error: err.message })) as ErrorRequestHandler);
  const server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    ask: async (url) => {
      const res = await fetch(`${origin}${url}`);
      return `${res.status} ${await res.text()}`;
    },
    close: () => new Promise<void>((resolve) => void server.close(() => resolve())),
  };
}

const value = fc.oneof(
  fc.constantFrom('', '1', '20', '-1', 'true', 'USD', 'USD,EUR', 'a:b', '%3A', '[x]', '2025-10-13', '2025-10-13T00:00:00Z', 'x@y.z', '{"a":1}'),
  fc.string({ maxLength: 8 }).map(encodeURIComponent),
);

describe('memoized parameter parsing', () => {
  it('leaves every query of every list read, judged and reshaped as the validator did without it', async () => {
    // Otherwise both runs below would be memoized and prove nothing.
    expect(util.memoized).toBeUndefined();
    const queries = fc.sample(
      fc.constantFrom(...lists).chain(({ path, names }) =>
        fc.array(fc.tuple(fc.oneof(fc.constantFrom(...names), fc.constantFrom('unknown', 'limit[]', 'limit%5B%5D', 'filter%5Bx%5D')), value, fc.boolean()), { maxLength: 4 }).map(
          (pairs) => `${base}${path}?${pairs.map(([name, v, repeated]) => `${name}=${v}${repeated ? `&${name}=${v}` : ''}`).join('&')}`,
        ),
      ),
      { seed: 20251013, numRuns: 600 },
    );
    const before = await validatorApp();
    const answersBefore = [];
    for (const url of queries) answersBefore.push(await before.ask(url));
    await before.close();

    memoizeValidatorParameterParsing();
    expect(util.memoized).toBe(true);
    const after = await validatorApp();
    const answersAfter = [];
    // Twice: the first asks fill the memo, the second are answered from it.
    for (const url of queries) answersAfter.push(await after.ask(url));
    for (const [i, url] of queries.entries()) expect(await after.ask(url), url).toBe(answersBefore[i]);
    await after.close();
    expect(answersAfter).toEqual(answersBefore);
    // Not a vacuous comparison: the sample reaches both outcomes.
    expect(answersBefore.filter((a) => a.startsWith('200')).length).toBeGreaterThan(50);
    expect(answersBefore.filter((a) => a.startsWith('400')).length).toBeGreaterThan(50);
  });
});
