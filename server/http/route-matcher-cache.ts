// express-openapi-validator 5.6 compiles the path-to-regexp matcher of every route it scans on
// every request (lookupRoute in openapi.metadata.js): with 60-odd paths that was 8 % of a GET's CPU.
// Upstream has the fix open (cdimascio/express-openapi-validator#1217, "perf: cache route
// matchers"); until it ships, the validator's own copy of path-to-regexp memoizes its matchers.
// A compiled matcher holds no state (no `g` flag), so sharing one is safe.
import { createRequire } from 'node:module';
import { dirname } from 'node:path';

const require = createRequire(import.meta.url);
type PathToRegexp = (path: unknown, options?: Record<string, unknown>) => { regexp: RegExp; keys: { name: string }[] };

export function cacheValidatorRouteMatchers(): void {
  const validator = dirname(require.resolve('express-openapi-validator'));
  const module = require(require.resolve('path-to-regexp', { paths: [validator] })) as { pathToRegexp: PathToRegexp & { memoized?: true } };
  const compile = module.pathToRegexp;
  if (compile.memoized) return;
  const compiled = new Map<string, ReturnType<PathToRegexp>>();
  const memoized: PathToRegexp & { memoized?: true } = (path, options = {}) => {
    if (typeof path !== 'string') return compile(path, options);
    const key = `${JSON.stringify(options)} ${path}`;
    let matcher = compiled.get(key);
    if (matcher === undefined) {
      matcher = compile(path, options);
      compiled.set(key, matcher);
    }
    return matcher;
  };
  memoized.memoized = true;
  module.pathToRegexp = memoized;
}
