// express-openapi-validator 5.6 finds a request's operation by trying every route of the contract
// in turn (lookupRoute in openapi.metadata.js), the first match winning. Its middleware now sees, for each request, only the routes that could match the
// request's third path segment (`customers` in /2025-10-13/customers/{id}), in their original
// order, so the first match is the same route. A route whose first segments are not plain text
// (a parameter, a wildcard, an optional group) could match anything and is in every such list.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

type RouteMap = Record<string, object>;
interface Context {
  expressRouteMap: RouteMap;
  useRequestUrl?: boolean;
}
type Middleware = (req: { url: string; originalUrl: string }, res: unknown, next: unknown) => unknown;
type MetadataMiddleware = ((this: unknown, context: Context, responseApiDoc: unknown) => Middleware) & { indexed?: true };

/** The segment that picks a request's candidate routes: after the version, the API area. */
const SEGMENT = 2;
/** Text that path-to-regexp reads as itself; parameters never match across a `/`. */
const PLAIN = /^[A-Za-z0-9._~-]*$/;

/** The key of the routes a path can match, or undefined when it could match any path. */
function routeKey(route: string): string | undefined {
  const segments = route.split('/');
  if (segments.length <= SEGMENT || /[*{}()\\]/.test(segments.slice(0, SEGMENT + 1).join('/'))) return undefined;
  const segment = segments[SEGMENT] as string;
  return PLAIN.test(segment) && segment !== '' ? segment.toLowerCase() : undefined;
}

/**
 * For a request path (query string included or not), the part of `map` holding every route that
 * could match it, in `map`'s order. Keys compare in lower case: the validator matches routes
 * without regard to case unless the application asks for case-sensitive routing.
 */
export function candidateRoutes(map: RouteMap): (url: string) => RouteMap {
  const routes = Object.keys(map);
  const keys = routes.map(routeKey);
  const subset = (keep: (key: string | undefined) => boolean): RouteMap => Object.fromEntries(routes.filter((_, i) => keep(keys[i])).map((route) => [route, map[route] as object]));
  const anywhere = subset((key) => key === undefined);
  const byKey = new Map([...new Set(keys)].filter((key) => key !== undefined).map((key) => [key, subset((k) => k === key || k === undefined)]));
  return (url) => {
    const end = url.indexOf('?');
    const segment = (end === -1 ? url : url.slice(0, end)).split('/', SEGMENT + 1)[SEGMENT];
    return (segment === undefined ? undefined : byKey.get(segment.toLowerCase())) ?? anywhere;
  };
}

export function indexValidatorRouteLookup(): void {
  const dist = dirname(require.resolve('express-openapi-validator'));
  const validator = require(join(dist, 'openapi.validator.js')) as { OpenApiValidator: { prototype: { metadataMiddleware: MetadataMiddleware } } };
  const prototype = validator.OpenApiValidator.prototype;
  const original = prototype.metadataMiddleware;
  if (original.indexed === true) return;
  const indexed: MetadataMiddleware = function (context, responseApiDoc) {
    const candidates = candidateRoutes(context.expressRouteMap);
    let routes = context.expressRouteMap;
    // The validator reads `expressRouteMap` only while it looks a request's route up, synchronously.
    const narrowed = Object.create(context, { expressRouteMap: { get: () => routes } }) as Context;
    const middleware = original.call(this, narrowed, responseApiDoc);
    return (req, res, next) => {
      routes = candidates(context.useRequestUrl === true ? req.url : req.originalUrl);
      try {
        return middleware(req, res, next);
      } finally {
        routes = context.expressRouteMap;
      }
    };
  };
  indexed.indexed = true;
  prototype.metadataMiddleware = indexed;
}
