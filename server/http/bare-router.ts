// The contract's routes without express-openapi-validator, for `npm run bench` alone (the config
// refuses it with NODE_ENV=production): the benchmark runs the same server with and without the
// validator to price it. It finds the operation and its path parameters and runs the same security
// handlers; it validates nothing and takes no file uploads, so it must never serve real traffic.
import type { Request, RequestHandler } from 'express';
import type { securityHandlers } from './auth.ts';

type Json = Record<string, unknown>;
type Security = ReturnType<typeof securityHandlers>;

interface Route {
  regexp: RegExp;
  names: string[];
  methods: Map<string, Json>;
}

export function bareRouter(spec: Json, basePath: string, security: Security): RequestHandler {
  const routes: Route[] = Object.entries(spec.paths as Record<string, Json>)
    // A literal segment beats a template: `/customers/internal-accounts` before `/customers/{customerId}`.
    .sort(([a], [b]) => (a.match(/\{/g)?.length ?? 0) - (b.match(/\{/g)?.length ?? 0))
    .map(([template, item]) => ({
      regexp: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '([^/]+)')}$`),
      names: [...template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] as string),
      methods: new Map(['get', 'put', 'post', 'delete', 'patch'].filter((m) => item[m] !== undefined).map((m) => [m.toUpperCase(), item[m] as Json])),
    }));
  const defaultSecurity = spec.security as Json[] | undefined;

  return async (req: Request, _res, next) => {
    if (!req.path.startsWith(`${basePath}/`)) return next();
    const path = req.path.slice(basePath.length);
    const route = routes.find((r) => r.regexp.test(path));
    const operation = route?.methods.get(req.method);
    if (route === undefined || operation === undefined) return next();
    const values = route.regexp.exec(path)?.slice(1) ?? [];
    const pathParams = Object.fromEntries(route.names.map((name, i) => [name, decodeURIComponent(values[i] ?? '')]));
    Object.assign(req, { openapi: { schema: operation, pathParams } });
    const requirements = (operation.security as Json[] | undefined) ?? defaultSecurity ?? [];
    const scheme = Object.keys(requirements[0] ?? {})[0] as keyof Security | undefined;
    try {
      if (scheme !== undefined) await security[scheme](req);
      next();
    } catch (err) {
      next(err);
    }
  };
}
