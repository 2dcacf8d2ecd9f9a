// express-openapi-validator 5.6 compiles the path-to-regexp matcher of every route it scans on
// every request (lookupRoute in openapi.metadata.js; route-lookup-index.ts narrows the scan to the
// request's area). Upstream has the fix open (cdimascio/express-openapi-validator#1217, "perf:
// cache route matchers"); until it ships, the validator's own copy of path-to-regexp memoizes its
// matchers. A compiled matcher holds no state (no `g` flag), so sharing one is safe.
import { createRequire } from 'node:module';
import { dirname } from 'node:path';

const require = createRequire(import.meta.url);
type PathToRegexp = (path: unknown, options?: Record<string, unknown>) => { regexp: RegExp; keys: { name: string }[] };

export function cacheValidatorRouteMatchers(): void {
  const validator = dirname(require.resolve('express-openapi-validator'));
  const library = require(require.resolve('path-to-regexp', { paths: [validator] })) as { pathToRegexp: PathToRegexp & { memoized?: true } };
  const compile = library.pathToRegexp;
  if (compile.memoized) return;
  // Keyed by the route string, then by the two flags: the validator asks for every route it scans
  // on every request, so building a combined key string each time cost as much as the lookup saved.
  const compiled = new Map<string, ReturnType<PathToRegexp>[]>();
  const memoized: PathToRegexp & { memoized?: true } = (path, options = {}) => {
    // The validator passes only these two options; anything else is compiled as asked, uncached.
    if (typeof path !== 'string') return compile(path, options);
    for (const option in options) if (option !== 'sensitive' && option !== 'strict') return compile(path, options);
    const flags = (options.sensitive === true ? 2 : 0) + (options.strict === true ? 1 : 0);
    let variants = compiled.get(path);
    if (variants === undefined) {
      variants = [];
      compiled.set(path, variants);
    }
    return (variants[flags] ??= compile(path, options));
  };
  memoized.memoized = true;
  library.pathToRegexp = memoized;
}
