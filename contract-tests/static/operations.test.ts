// The contract contains every operation of the product specification, at its method and path,
// with its authentication and permission, and nothing undocumented.
import { describe, expect, it } from 'vitest';
import { deref, operations, spec, webhookOperations } from '../support/spec.ts';
import { expectedOperations, expectedWebhooks, type Auth } from './expected-operations.ts';

const byId = new Map(operations.map((o) => [o.operation.operationId, o]));

function authOf(security: Record<string, string[]>[] | undefined): Auth | undefined {
  if (security === undefined) return undefined;
  if (security.length === 0) return 'none';
  const schemes = security.flatMap((s) => Object.keys(s));
  if (schemes.length === 1 && schemes[0] === 'basicAuth') return 'basic';
  if (schemes.length === 1 && schemes[0] === 'bearerAuth') return 'bearer';
  return undefined;
}

/** The values the `type` property of an event schema can take, through `allOf` and `$ref`s. */
function eventTypes(node: unknown): string[] {
  const schema = deref<Record<string, unknown>>(node);
  const type = deref<Record<string, unknown>>((schema.properties as Record<string, unknown> | undefined)?.type ?? {});
  const own = [...((type.enum as string[] | undefined) ?? []), ...(typeof type.const === 'string' ? [type.const] : [])];
  return [...own, ...((schema.allOf as unknown[] | undefined) ?? []).flatMap(eventTypes)];
}

describe('operations', () => {
  it.each(expectedOperations.map((e) => [e.operationId, e] as const))('%s exists with its method, path and access', (_id, expected) => {
    const found = byId.get(expected.operationId);
    expect(found, `${expected.operationId} is missing`).toBeDefined();
    expect({ method: found?.method, path: found?.path }).toEqual({ method: expected.method, path: expected.path });
    expect(authOf(found?.operation.security)).toBe(expected.auth);
    const permission = expected.auth === 'bearer' ? found?.operation['x-agent-permission'] : found?.operation['x-permission'];
    expect(permission).toBe(expected.permission);
  });

  it('has no operation the product specification does not list', () => {
    const listed = new Set(expectedOperations.map((e) => e.operationId));
    expect(operations.map((o) => o.operation.operationId).filter((id) => !listed.has(id))).toEqual([]);
  });

  it('uses unique operationIds', () => {
    const ids = [...operations, ...webhookOperations].map((o) => o.operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('serves every path under the versioned base path', () => {
    const servers = spec.servers as { url: string }[];
    expect(servers.length).toBeGreaterThanOrEqual(2);
    for (const s of servers) expect(s.url).toMatch(/\/2025-10-13$/);
    expect((spec.info as { version: string }).version).toBe('2025-10-13');
  });

  it('leaves jsonSchemaDialect at the OpenAPI 3.1 default (Swagger UI warns on any other)', () => {
    expect(spec).not.toHaveProperty('jsonSchemaDialect');
  });

  it.each(Object.entries(expectedWebhooks))('webhook %s carries its event types', (name, types) => {
    const hook = webhookOperations.find((w) => w.path === name);
    expect(hook, `webhook ${name} is missing`).toBeDefined();
    const body = deref<Record<string, unknown>>(hook?.operation.requestBody);
    const schema = (body.content as Record<string, { schema: unknown }>)['application/json']?.schema;
    expect(eventTypes(schema)).toEqual(expect.arrayContaining(types));
  });

  it('documents Retry-After on every 429', () => {
    for (const o of operations) {
      const tooMany = o.operation.responses['429'];
      if (tooMany === undefined) continue;
      expect(Object.keys((deref<Record<string, unknown>>(tooMany).headers ?? {}) as object)).toContain('Retry-After');
    }
  });

  it('takes Request-Id wherever it takes Service-Wallet-Signature: a signature answers one signing request', () => {
    const headersOf = (o: (typeof operations)[number]) =>
      ((o.operation.parameters ?? []) as unknown[]).map((p) => deref<{ name: string; in: string }>(p)).filter((p) => p.in === 'header').map((p) => p.name);
    const signed = operations.filter((o) => headersOf(o).includes('Service-Wallet-Signature'));
    expect(signed.map((o) => o.operation.operationId)).toEqual(expect.arrayContaining(['executeQuote', 'executeCurrentAgentQuote', 'createAuthCredential']));
    expect(signed.filter((o) => !headersOf(o).includes('Request-Id')).map((o) => o.operation.operationId)).toEqual([]);
  });
});
