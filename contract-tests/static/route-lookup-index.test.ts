// server/dependency-patches/route-lookup-index.ts hands express-openapi-validator's route lookup only the routes
// that could match a request. The validator takes the first route that matches, so the first match
// among the candidates must be the first match among all routes, for any path a client can send:
// the contract's own routes (built by the validator's loader, in its order) and routes with
// parameters and wildcards where the index keys.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { candidateRoutes } from '../../server/dependency-patches/route-lookup-index.ts';
import { requestValidatorSpec, validatorSpec } from '../../server/http/validator-spec.ts';

const require = createRequire(import.meta.url);
const dist = dirname(require.resolve('express-openapi-validator'));
const { pathToRegexp } = require(require.resolve('path-to-regexp', { paths: [dist] })) as { pathToRegexp: (route: string, options: object) => { regexp: RegExp } };
const { OpenApiSpecLoader } = require(join(dist, 'framework', 'openapi.spec.loader.js')) as { OpenApiSpecLoader: new (opts: object) => { load(): Promise<object> } };
const { OpenApiContext } = require(join(dist, 'framework', 'openapi.context.js')) as { OpenApiContext: new (spec: object, ignorePaths: unknown) => { expressRouteMap: Record<string, object> } };

const runs = { seed: 20251013, numRuns: 5_000 };
type RouteMap = Record<string, object>;

/** The validator's own rule (lookupRoute): the first route, in map order, whose matcher matches. */
function firstMatch(map: RouteMap, path: string, sensitive: boolean): string | undefined {
  return Object.keys(map).find((route) => pathToRegexp(route, { sensitive, strict: false }).regexp.test(path));
}

const segment = fc.stringMatching(/^[A-Za-z0-9%:._~@-]{0,10}$/);
const flipCase = (text: string, flips: boolean[]) => [...text].map((c, i) => (flips[i % flips.length] === true ? c.toUpperCase() : c)).join('');

/** Paths built from `routes`: parameters filled in, literals in any case, extra segments, queries. */
function pathsFrom(routes: string[]): fc.Arbitrary<string> {
  const fromRoute = fc
    .tuple(fc.constantFrom(...routes), fc.array(segment, { minLength: 8, maxLength: 8 }), fc.array(fc.boolean(), { minLength: 1, maxLength: 6 }), fc.constantFrom('', '/', '/x', '//', '/x/y'), fc.constantFrom('', '?limit=2', '?a=/b/c'))
    .map(([route, values, flips, tail, query]) => {
      let n = 0;
      const filled = route
        .replace(/\\:/g, ':')
        .split('/')
        .map((part) => (part.startsWith(':') || part.startsWith('*') ? (values[n++ % values.length] ?? 'v') : flipCase(part, flips)))
        .join('/');
      return `${filled}${tail}${query}`;
    });
  const words = [...new Set(routes.flatMap((r) => r.split('/')))];
  const assembled = fc.array(fc.oneof(fc.constantFrom(...words), segment), { maxLength: 6 }).map((parts) => `/${parts.join('/')}`);
  return fc.oneof(fromRoute, assembled);
}

function expectSameFirstMatch(map: RouteMap, paths: fc.Arbitrary<string>): void {
  const candidates = candidateRoutes(map);
  for (const sensitive of [false, true]) {
    fc.assert(
      fc.property(paths, (path) => {
        expect(firstMatch(candidates(path), path.split('?')[0] as string, sensitive)).toBe(firstMatch(map, path.split('?')[0] as string, sensitive));
      }),
      runs,
    );
  }
}

describe('the validator route lookup index', () => {
  let contract: RouteMap;
  beforeAll(async () => {
    const spec = await new OpenApiSpecLoader({ apiDoc: requestValidatorSpec(validatorSpec()), validateApiSpec: false, $refParser: { mode: 'bundle' } }).load();
    contract = new OpenApiContext(spec, undefined).expressRouteMap;
  });

  it('offers, for any path, the route the full lookup would take (the contract routes)', () => {
    expect(Object.keys(contract).length).toBeGreaterThan(50);
    expectSameFirstMatch(contract, pathsFrom(Object.keys(contract)));
  });

  it('narrows the contract routes to the request area', () => {
    const candidates = candidateRoutes(contract);
    const customers = Object.keys(candidates('/2025-10-13/Customers/Customer:1?limit=5'));
    expect(customers).toContain('/2025-10-13/customers/:customerId');
    expect(customers.every((route) => route.startsWith('/2025-10-13/customers'))).toBe(true);
    expect(Object.keys(candidates('/2025-10-13/nowhere/1'))).toEqual([]);
  });

  it('keeps routes that could match anything in every list, in their place', () => {
    const map = Object.fromEntries(
      ['/v1/customers/:id', '/v1/:area/special', '/v1/customers/list', '/v1/quotes', '/v1/*rest', '/v1/{opt}/x', '/v1/a\\:b/c', '/v1/quotes/:id', '/v1', '/:version/customers/other'].map((route) => [route, {}]),
    );
    expect(Object.keys(candidateRoutes(map)('/v1/customers/list'))).toEqual(['/v1/customers/:id', '/v1/:area/special', '/v1/customers/list', '/v1/*rest', '/v1/{opt}/x', '/v1/a\\:b/c', '/v1', '/:version/customers/other']);
    expectSameFirstMatch(map, pathsFrom(Object.keys(map)));
  });
});
