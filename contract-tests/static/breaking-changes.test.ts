// The breaking-change gate (scripts/breaking-changes.ts) on modified copies of the real bundle.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkBreakingChanges, describe as describeChange, findBreakingChanges } from '../../scripts/breaking-changes.ts';

type Json = Record<string, any>;

const root = resolve(import.meta.dirname, '..', '..');
const bundle = JSON.parse(readFileSync(resolve(root, 'generated', 'openapi.json'), 'utf8')) as Json;
const changed = (edit: (doc: Json) => void): Json => {
  const doc = structuredClone(bundle);
  edit(doc);
  return doc;
};
const breaking = (edit: (doc: Json) => void) => findBreakingChanges(bundle, changed(edit)).map(describeChange);

describe('breaking-change gate', () => {
  it('reports a removed response field', () => {
    const found = breaking((doc) => {
      const token = doc.components.schemas.Token;
      delete token.properties.clientId;
      token.required = token.required.filter((p: string) => p !== 'clientId');
    });
    expect(found.join('\n')).toMatch(/GET \/tokens .*Property `clientId` of `Token` was removed/);
  });

  it('reports a narrowed request enum', () => {
    const found = breaking((doc) => {
      doc.components.schemas.TokenCreateRequest.properties.permissions.items = { type: 'string', enum: ['VIEW', 'TRANSACT'] };
    });
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/^POST \/tokens requestBody.*lost values: 'MANAGE'.*enum-values-removed/);
  });

  it('reports a new required query parameter', () => {
    const found = breaking((doc) => {
      doc.paths['/customers'].get.parameters.push({ name: 'tenant', in: 'query', required: true, schema: { type: 'string' } });
    });
    expect(found).toEqual([expect.stringMatching(/^GET \/customers .*Required `tenant` query parameter was added/)]);
  });

  it('does not report an added optional field, a new operation, or new descriptions and examples', () => {
    const found = breaking((doc) => {
      doc.components.schemas.Token.properties.lastUsedAt = { type: 'string', format: 'date-time', description: 'When the token was last used.' };
      doc.components.schemas.TokenCreateRequest.properties.note = { type: 'string', maxLength: 200 };
      doc.paths['/tokens/{tokenId}/rotate'] = {
        post: { ...structuredClone(doc.paths['/tokens'].post), operationId: 'rotateToken', parameters: [{ name: 'tokenId', in: 'path', required: true, schema: { type: 'string' } }] },
      };
      doc.paths['/customers'].get.description = 'Reworded.';
      doc.components.schemas.Token.description = 'Reworded.';
      doc.components.schemas.Token.properties.name.example = 'Another name';
    });
    expect(found).toEqual([]);
  });

  it('reports a value added to a response enum, naming the clients it breaks, but not one added to a request enum', () => {
    const found = breaking((doc) => {
      doc.components.schemas.QuoteStatus.enum.push('ON_HOLD');
    });
    expect(found.length).toBeGreaterThan(0);
    expect(found.every((line) => /responses.*enum-values-added/.test(line) && line.includes("Breaking for openapi-generator's Python and Java clients"))).toBe(true);
    expect(
      breaking((doc) => {
        doc.components.schemas.TokenCreateRequest.properties.permissions.items = { type: 'string', enum: ['VIEW', 'TRANSACT', 'MANAGE', 'AUDIT'] };
      }),
    ).toEqual([]);
  });

  it('does not call format: double set on a request number breaking, but another format is', () => {
    const base = changed((doc) => {
      delete doc.components.schemas.BeneficialOwnerCreateRequest.properties.ownershipPercentage.format;
    });
    const withFormat = (format: string, type = 'number') =>
      changed((doc) => {
        Object.assign(doc.components.schemas.BeneficialOwnerCreateRequest.properties.ownershipPercentage, { type, format });
      });
    expect(findBreakingChanges(base, withFormat('double'))).toEqual([]);
    expect(findBreakingChanges(base, withFormat('float'))).toEqual([]);
    expect(findBreakingChanges(base, withFormat('percent')).map(describeChange)).toEqual([expect.stringMatching(/^POST \/beneficial-owners requestBody.*`format` of `ownershipPercentage` was set to 'percent'/)]);
  });

  it('does not call a const restated as a one-value enum breaking, but another value is', () => {
    const status = (value: Json) => (doc: Json) => {
      const schema = doc.components.schemas.Error401.allOf[1].properties.status;
      delete schema.const;
      delete schema.enum;
      Object.assign(schema, value);
    };
    const withConst = changed(status({ const: 401 }));
    expect(findBreakingChanges(withConst, changed(status({ enum: [401] })))).toEqual([]);
    expect(findBreakingChanges(withConst, changed(status({ enum: [499] }))).map(describeChange)).toEqual([
      expect.stringMatching(/^GET \/config responses\/401.*`const` of `status` was removed/),
    ]);
  });

  it('does the same in a request, through a discriminator mapping', () => {
    const customerType = (value: Json) => (doc: Json) => {
      const schema = doc.components.schemas.IndividualCustomerCreateRequest.allOf[1].properties.customerType;
      delete schema.const;
      delete schema.enum;
      Object.assign(schema, value);
    };
    const withConst = changed(customerType({ const: 'INDIVIDUAL' }));
    expect(findBreakingChanges(withConst, changed(customerType({ enum: ['INDIVIDUAL'] })))).toEqual([]);
    expect(findBreakingChanges(withConst, changed(customerType({ enum: ['BUSINESS'] }))).map(describeChange)).toEqual([
      expect.stringMatching(/^POST \/customers requestBody.*mapping\/INDIVIDUAL.*customerType/),
    ]);
  });

  it('does not call a property moved between the members of one allOf breaking, unless it loses a constraint', () => {
    const lists = (doc: Json) => Object.values(doc.components.schemas as Record<string, Json>).filter((s) => s.allOf?.[0]?.$ref === '#/components/schemas/ListEnvelope');
    const inEnvelope = (data: Json) => (doc: Json) => {
      const envelope = doc.components.schemas.ListEnvelope;
      envelope.properties = { data, ...envelope.properties };
      envelope.required = ['data', ...envelope.required.filter((n: string) => n !== 'data')];
      for (const list of lists(doc)) list.allOf[1].required = (list.allOf[1].required ?? []).filter((n: string) => n !== 'data');
    };
    const inLists = changed((doc) => {
      const envelope = doc.components.schemas.ListEnvelope;
      delete envelope.properties.data;
      envelope.required = envelope.required.filter((n: string) => n !== 'data');
      for (const list of lists(doc)) list.allOf[1].required = ['data', ...(list.allOf[1].required ?? []).filter((n: string) => n !== 'data')];
    });
    const data = { type: 'array', description: 'The items of this page.', items: {} };
    expect(findBreakingChanges(changed(inEnvelope(data)), inLists)).toEqual([]);
    expect(findBreakingChanges(changed(inEnvelope({ ...data, maxItems: 100 })), inLists).map(describeChange)).toEqual([
      expect.stringMatching(/^GET \/tokens responses\/200.*Property `data` of `ListEnvelope` was removed/),
    ]);
  });

  it('does not call Error.details moved from the allOf base into each Error<status> breaking, but does where a member leaves it out', () => {
    const withBaseDetails = changed((doc) => {
      doc.components.schemas.Error.properties.details = { type: 'object', description: 'Structured context.', additionalProperties: true };
    });
    expect(findBreakingChanges(withBaseDetails, bundle)).toEqual([]);
    const left = changed((doc) => {
      delete doc.components.schemas.Error401.allOf[1].properties.details;
    });
    expect(findBreakingChanges(withBaseDetails, left).map(describeChange)).toEqual(expect.arrayContaining([expect.stringMatching(/responses\/401.*Property `details` was removed/)]));
  });

  it('does not call a security role that restates x-permission breaking, but a new role is', () => {
    const restated = changed((doc) => {
      doc.security = [{ basicAuth: ['VIEW'] }];
      doc.paths['/tokens'].post.security = [{ basicAuth: [doc.paths['/tokens'].post['x-permission']] }];
      // redocly diff reports this one as a requirement removed plus one added
      const agentOperation = doc.paths['/agents/me/external-accounts'].get;
      agentOperation.security = [{ bearerAuth: [agentOperation['x-agent-permission']] }];
      delete agentOperation['x-agent-permission'];
    });
    expect(findBreakingChanges(bundle, restated)).toEqual([]);
    const stricter = breaking((doc) => {
      doc.paths['/tokens'].get.security = [{ basicAuth: ['MANAGE'] }]; // x-permission is VIEW
    });
    expect(stricter).toEqual([expect.stringMatching(/^GET \/tokens security.*requires new scopes: 'MANAGE'/)]);
  });

  describe('versions', () => {
    const dir = mkdtempSync(join(tmpdir(), 'releases-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    mkdirSync(join(dir, bundle.info.version));
    writeFileSync(join(dir, bundle.info.version, 'openapi.json'), JSON.stringify(bundle));
    const withoutOperation = (version: string) =>
      changed((doc) => {
        doc.info.version = version;
        delete doc.paths['/tokens'].post;
      });

    it('passes the current bundle against its committed baseline', () => {
      const result = checkBreakingChanges(bundle);
      expect(result.lines.join('\n')).toContain(`${bundle.info.version} vs releases/${bundle.info.version}: 0 breaking`);
      expect(result).toMatchObject({ ok: true, newVersion: false, breaking: [] });
    });

    it('fails a breaking change within the released version', () => {
      const result = checkBreakingChanges(withoutOperation(bundle.info.version), dir);
      expect(result.ok).toBe(false);
      expect(result.lines.join('\n')).toMatch(/✖ POST \/tokens: Operation `POST \/tokens` was removed/);
    });

    it('excuses a break listed as a fix in the version\'s fixes.yaml, and fails an entry that matches nothing', () => {
      const fixes = join(dir, bundle.info.version, 'fixes.yaml');
      try {
        writeFileSync(fixes, `- match: 'POST /tokens: Operation'\n  reason: the specification has no such operation\n`);
        const fixed = checkBreakingChanges(withoutOperation(bundle.info.version), dir);
        expect(fixed).toMatchObject({ ok: true, breaking: [] });
        expect(fixed.lines.join('\n')).toMatch(/fixed: POST \/tokens: .*\[not breaking: a fix: the specification has no such operation\]/);
        writeFileSync(fixes, `- match: 'POST /tokens: Operation'\n  reason: r\n- match: 'nothing like this'\n  reason: r\n`);
        const stale = checkBreakingChanges(withoutOperation(bundle.info.version), dir);
        expect(stale.ok).toBe(false);
        expect(stale.lines.join('\n')).toMatch(/match no change[\s\S]*✖ nothing like this/);
        writeFileSync(fixes, `- match: 'POST /tokens: Operation'\n`);
        expect(() => checkBreakingChanges(withoutOperation(bundle.info.version), dir)).toThrow(/needs a match and a reason/);
      } finally {
        rmSync(fixes, { force: true });
      }
    });

    it('allows it in a new dated version and asks for its baseline', () => {
      const result = checkBreakingChanges(withoutOperation('2099-01-01'), dir);
      expect(result).toMatchObject({ ok: true, newVersion: true, baselineVersion: bundle.info.version });
      expect(result.breaking).toHaveLength(1);
      expect(result.lines.join('\n')).toContain('releases/2099-01-01/openapi.json');
    });
  });
});
