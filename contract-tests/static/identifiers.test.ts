// Identifiers follow the product specification's rule: `<Type>:<id>` where Type is one of twelve,
// and no other type prefix. The contract's patterns, its examples, the server's id factory and the
// Conventions guide all name the same twelve; every other id is an opaque string without a
// pattern (a signed retry's `requestId` among them, which the specification leaves a plain string).
import { describe, expect, it } from 'vitest';
import { newId, newOpaqueId } from '../../server/shared/ids.ts';
import { findTable } from '../support/markdown-table.ts';
import { deref, operations, spec } from '../support/spec.ts';

const TWELVE = ['Customer', 'InternalAccount', 'ExternalAccount', 'EmbeddedWallet', 'AuthMethod', 'Quote', 'Transaction', 'BeneficialOwner', 'Token', 'Agent', 'AgentAction', 'Lookup'];
const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

/** Every string value under `node`, with the key that holds it. */
function strings(node: unknown, key = '', out: [string, string][] = []): [string, string][] {
  if (typeof node === 'string') out.push([key, node]);
  else if (Array.isArray(node)) for (const item of node) strings(item, key, out);
  else if (node !== null && typeof node === 'object') for (const [k, v] of Object.entries(node)) strings(v, k, out);
  return out;
}

describe('identifiers', () => {
  it('every pattern of a typed id names only the twelve types', () => {
    const typed = strings(spec)
      .filter(([key]) => key === 'pattern')
      .map(([, pattern]) => /^\^\(*([A-Za-z|]+)\)?:\[0-9a-f-\]/.exec(pattern)?.[1])
      .filter((types): types is string => types !== undefined);
    expect(typed.length).toBeGreaterThan(20);
    expect([...new Set(typed.flatMap((t) => t.split('|')))].filter((t) => !TWELVE.includes(t))).toEqual([]);
  });

  it('every example of a typed id names one of the twelve types', () => {
    const prefixes = strings(spec).flatMap(([, value]) => [...value.matchAll(new RegExp(`\\b([A-Za-z]+):${UUID}`, 'g'))].map((m) => m[1] as string));
    expect(prefixes.length).toBeGreaterThan(100);
    expect([...new Set(prefixes)].filter((t) => !TWELVE.includes(t))).toEqual([]);
  });

  it('the ids of documents, verifications, sessions, events and the platform configuration, and requestId, are opaque strings without a pattern', () => {
    const schemas = spec.components.schemas as Record<string, { properties: Record<string, Record<string, unknown>> }>;
    for (const [schema, property] of [['Document', 'id'], ['Verification', 'id'], ['AuthSession', 'id'], ['WebhookEvent', 'id'], ['PlatformConfig', 'id'], ['SignedRetryChallenge', 'requestId'], ['PasskeyAuthChallenge', 'requestId']] as const) {
      const field = schemas[schema]?.properties[property];
      expect(field, `${schema}.${property}`).toMatchObject({ type: 'string' });
      expect(field, `${schema}.${property}`).not.toHaveProperty('pattern');
    }
    const parameters = operations.flatMap((o) => [...((o.operation.parameters ?? []) as unknown[]), ...((o.pathItem.parameters ?? []) as unknown[])].map((p) => deref<{ name: string; schema: Record<string, unknown> }>(p)));
    for (const name of ['documentId', 'verificationId', 'sessionId', 'Request-Id']) {
      const found = parameters.filter((p) => p.name === name);
      expect(found.length, name).toBeGreaterThan(0);
      for (const p of found) expect(p.schema, name).not.toHaveProperty('pattern');
    }
  });

  it('the server issues typed ids only of the twelve types, and opaque UUIDs for the rest', () => {
    for (const type of TWELVE) expect(newId(type as Parameters<typeof newId>[0])).toMatch(new RegExp(`^${type}:${UUID}$`));
    expect(newOpaqueId()).toMatch(new RegExp(`^${UUID}$`));
  });

  it('the Conventions guide lists the twelve types, and says the other ids are opaque', () => {
    const guide = (spec.tags as { name: string; description?: string }[]).find((t) => t.name === 'Conventions')?.description ?? '';
    expect(findTable(guide, 'Type').rows.map((row) => row[0]?.replaceAll('`', ''))).toEqual(TWELVE);
    expect(guide).toMatch(/Every other id is an opaque string[\s\S]*documents, verifications, Embedded Wallet\s+sessions, webhook events \(`Webhook-Id`\), the platform configuration, and the `requestId`/);
  });
});
