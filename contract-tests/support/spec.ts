// Read access to the bundled contract (generated/openapi.json), shared by the static tests and the
// contract suite's response checks.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

export const specPath = resolve(import.meta.dirname, '..', '..', 'generated', 'openapi.json');
export const specUrl = pathToFileURL(specPath).href;

type Json = Record<string, unknown>;
export const spec = JSON.parse(readFileSync(specPath, 'utf8')) as Json & {
  paths: Record<string, Json>;
  webhooks: Record<string, Json>;
  components: Record<string, Record<string, Json>>;
};

export const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

export interface SpecOperation {
  path: string;
  method: (typeof METHODS)[number];
  operation: Json & { operationId: string; responses: Record<string, Json>; parameters?: Json[]; security?: Record<string, string[]>[] };
  pathItem: Json;
}

/** Resolves a local `$ref` (`#/components/...`) of the bundle, repeatedly. */
export function deref<T = Json>(node: unknown): T {
  let current = node as Json;
  while (current !== null && typeof current === 'object' && typeof current.$ref === 'string') {
    const pointer = (current.$ref as string).replace(/^#\//, '').split('/').map((p) => p.replaceAll('~1', '/').replaceAll('~0', '~'));
    current = pointer.reduce<Json>((acc, key) => acc[key] as Json, spec);
  }
  return current as T;
}

function collect(items: Record<string, Json>): SpecOperation[] {
  return Object.entries(items).flatMap(([path, pathItem]) =>
    METHODS.filter((m) => pathItem[m] !== undefined).map((method) => ({
      path,
      method,
      pathItem,
      operation: pathItem[method] as SpecOperation['operation'],
    })),
  );
}

export const operations: SpecOperation[] = collect(spec.paths);
export const webhookOperations: SpecOperation[] = collect(spec.webhooks ?? {});
