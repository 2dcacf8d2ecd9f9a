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
  const library = require(require.resolve('path-to-regexp', { paths: [validator] })) as { pathToRegexp: PathToRegexp & { memoized?: true } };
  const compile = library.pathToRegexp;
  if (compile.memoized) return;
  const compiled = new Map<string, ReturnType<PathToRegexp>>();
  const memoized: PathToRegexp & { memoized?: true } = (path, options = {}) => {
    // The validator passes only these two options; anything else is compiled as asked, uncached.
    if (typeof path !== 'string' || Object.keys(options).some((k) => k !== 'sensitive' && k !== 'strict')) return compile(path, options);
    const key = `${options.sensitive === true ? 's' : '-'}${options.strict === true ? 's' : '-'}${path}`;
    let matcher = compiled.get(key);
    if (matcher === undefined) {
      matcher = compile(path, options);
      compiled.set(key, matcher);
    }
    return matcher;
  };
  memoized.memoized = true;
  library.pathToRegexp = memoized;
}
