// The contract the kit checks against: the bundle this package ships (generated/openapi.json),
// found from the kit's own location, so the same code reads it from the repository's source, from
// its compiled copy in generated/conformance/ and from node_modules/ once installed.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { matchPathTemplate } from './path-template.ts';

type Json = Record<string, unknown>;

export const PACKAGE_NAME = '@payments-service/contract';

/** The folder of this package: the first parent of the kit that holds its package.json. */
function packageRoot(): string {
  for (let dir = import.meta.dirname; ; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === PACKAGE_NAME) return dir;
    if (dirname(dir) === dir) throw new Error(`conformance: cannot find the ${PACKAGE_NAME} package around ${import.meta.dirname}`);
  }
}

export const packageDir = packageRoot();
export const packageVersion = (JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as { version: string }).version;

export interface Bundle extends Json {
  info: { version: string; title: string };
  paths: Record<string, Json>;
  webhooks: Record<string, Json>;
  components: Record<string, Record<string, Json>>;
}

export const bundle = JSON.parse(readFileSync(join(packageDir, 'generated', 'openapi.json'), 'utf8')) as Bundle;
export const API_VERSION = bundle.info.version;

export const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;
export type Method = (typeof METHODS)[number];

export interface Operation {
  path: string;
  method: Method;
  operationId: string;
  operation: Json & { responses: Record<string, Json>; parameters?: Json[]; security?: Record<string, string[]>[]; requestBody?: Json };
  pathItem: Json;
}

/** Resolves a local `$ref` (`#/components/...`) of the bundle, repeatedly. */
export function deref<T = Json>(node: unknown): T {
  let current = node as Json;
  while (current !== null && typeof current === 'object' && typeof current.$ref === 'string') {
    const pointer = current.$ref.replace(/^#\//, '').split('/').map((p) => p.replaceAll('~1', '/').replaceAll('~0', '~'));
    current = pointer.reduce<Json>((acc, key) => acc[key] as Json, bundle);
  }
  return current as T;
}

export const operations: Operation[] = Object.entries(bundle.paths).flatMap(([path, pathItem]) =>
  METHODS.filter((m) => pathItem[m] !== undefined).map((method) => {
    const operation = pathItem[method] as Operation['operation'];
    return { path, method, operationId: operation.operationId as string, operation, pathItem };
  }),
);

export const operationById = (operationId: string): Operation => {
  const op = operations.find((o) => o.operationId === operationId);
  if (op === undefined) throw new Error(`conformance: no operation ${operationId} in the bundle`);
  return op;
};

/** The parameters of an operation, its path item's included, resolved. */
export const parametersOf = (op: Operation): (Json & { name: string; in: string; required?: boolean; schema?: Json; example?: unknown })[] =>
  [...((op.pathItem.parameters as Json[] | undefined) ?? []), ...(op.operation.parameters ?? [])].map((p) => deref(p));

/** The operation of a request (its path relative to the API's base URL). */
export function findOperation(method: string, path: string): Operation | undefined {
  const candidates = operations.filter((o) => o.method === method.toLowerCase());
  const template = matchPathTemplate(candidates.map((o) => o.path), path);
  return candidates.find((o) => o.path === template);
}

/** `basic` (API token), `bearer` (agent access token) or `none`. */
export type Security = 'basic' | 'bearer' | 'none';
export const securityOf = (op: Operation): Security => {
  const security = op.operation.security ?? (bundle.security as Record<string, string[]>[] | undefined) ?? [];
  return security.some((s) => 'basicAuth' in s) ? 'basic' : security.some((s) => 'bearerAuth' in s) ? 'bearer' : 'none';
};

/** The permission an operation needs: the API token's (`MANAGE`...) or the agent policy's (`CREATE_QUOTES`, `ANY`). */
export const permissionOf = (op: Operation): string | undefined => {
  const security = op.operation.security ?? [];
  return security.flatMap((s) => [...(s.basicAuth ?? []), ...(s.bearerAuth ?? [])])[0];
};

/** The documented statuses of an operation. */
export const statusesOf = (op: Operation): number[] => Object.keys(op.operation.responses).map(Number);

/** The request body's media types. */
export const bodyTypesOf = (op: Operation): string[] => Object.keys((deref<{ content?: Json }>(op.operation.requestBody)?.content ?? {}) as Json);

/** Whether the operation documents an `Idempotency-Key` header. */
export const takesIdempotencyKey = (op: Operation): boolean => parametersOf(op).some((p) => p.in === 'header' && p.name === 'Idempotency-Key');

/** Each webhook event `type` and the schema of its body. */
export const webhookSchemas: Map<string, string> = new Map(
  Object.values(bundle.webhooks).flatMap((item) => {
    const schema = ((item.post as Json).requestBody as { content: Record<string, { schema: { $ref: string } }> }).content['application/json']?.schema.$ref ?? '';
    const parts = (deref<{ allOf?: Json[] }>({ $ref: schema }).allOf ?? []).map((p) => deref<Json>(p));
    const types = parts.flatMap((p) => ((p.properties as Record<string, { enum?: string[] }> | undefined)?.type?.enum ?? []));
    return types.map((type): [string, string] => [type, schema]);
  }),
);
