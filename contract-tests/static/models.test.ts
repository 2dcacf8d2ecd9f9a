// The parts of `npm run check:models` (scripts/generate-models.ts) that need no compiler: how the
// schemas are prepared for quicktype, which examples are checked against which model, and how a
// round-tripped example is compared. The compilers and the round trip itself run in .ci/run.
import { describe, expect, it } from 'vitest';
import { ABSENT, differences, instant } from '../../scripts/models/compare.ts';
import { exampleCases } from '../../scripts/models/examples.ts';
import { modelInput } from '../../scripts/models/input.ts';
import { isKnownLoss, KNOWN_LOSSES } from '../../scripts/models/known-losses.ts';
import { spec } from '../support/spec.ts';

type Json = Record<string, unknown>;
const input = modelInput(spec);
const definitions = input.document.definitions as Record<string, Json>;
const property = (schema: string, name: string, member?: number): unknown => {
  const s = definitions[schema] ?? {};
  const holder = member === undefined ? s : (s.allOf as Json[])[member];
  return (holder?.properties as Json | undefined)?.[name];
};

describe('the schemas as quicktype reads them', () => {
  it('holds every component schema but the enums that share another one’s values', () => {
    expect(Object.keys(definitions).length + input.aliases.size).toBe(Object.keys(spec.components.schemas ?? {}).length);
    // No two component enums share their values since KybStatus lost UNVERIFIED (issue 37).
    expect([...input.aliases]).toEqual([]);
    // Two that do: the second by name is left out, and references to it name the first.
    const twin = structuredClone(spec) as typeof spec & { components: { schemas: Record<string, Json> } };
    twin.components.schemas.KycStatusTwin = structuredClone(twin.components.schemas.KycStatus as Json);
    (twin.components.schemas.TokenCreateRequest as { properties: Json }).properties.twin = { $ref: '#/components/schemas/KycStatusTwin' };
    const withTwin = modelInput(twin);
    expect([...withTwin.aliases]).toEqual([['KycStatusTwin', 'KycStatus']]);
    expect(JSON.stringify(withTwin.document.definitions)).not.toContain('#/definitions/KycStatusTwin');
  });

  it('is one document: every $ref names one of its definitions', () => {
    const refs: string[] = [];
    JSON.stringify(definitions, (key, value: unknown) => {
      if (key === '$ref') refs.push(String(value));
      return value;
    });
    expect(refs.length).toBeGreaterThan(300);
    expect(refs.filter((r) => definitions[r.replace('#/definitions/', '')] === undefined)).toEqual([]);
  });

  it('types a variant’s discriminator with its union’s enum: the spec’s when there is one, else <Union><Property>', () => {
    expect(property('IndividualCustomer', 'customerType', 1)).toEqual({ $ref: '#/definitions/CustomerType' });
    expect(property('EmailOtpCredentialCreateRequest', 'type')).toEqual({ $ref: '#/definitions/AuthMethodType' });
    expect(property('UsdAccountInfo', 'accountType')).toEqual({
      type: 'string',
      enum: ['USD_ACCOUNT', 'EUR_ACCOUNT', 'GBP_ACCOUNT', 'MXN_ACCOUNT', 'AED_ACCOUNT', 'SPARK_WALLET'],
      title: 'ExternalAccountInfoAccountType',
    });
    // Two unions with the same discriminator values share one enum, named after the first.
    expect((property('AccountTransactionDestination', 'destinationType') as Json).title).toBe('QuoteDestinationDestinationType');
  });

  it('names an inline enum <Schema><Property>, or after the component enum with its values', () => {
    expect((property('Error400', 'code', 1) as Json).title).toBe('Error400Code');
    expect((property('SignedRetryChallenge', 'type') as Json).title).toBe('AuthMethodType');
    expect(input.allowedNames.has('Error400Code')).toBe(true);
    expect(input.allowedNames.has('Code')).toBe(false);
  });

  it('makes an object that takes other keys besides its properties a map, so no key is dropped', () => {
    expect(definitions.Error400Details).toMatchObject({ type: 'object', additionalProperties: true });
    expect(definitions.Error400Details).not.toHaveProperty('properties');
    expect(definitions.FieldError).toHaveProperty('properties');
  });
});

describe('the examples checked against the models', () => {
  const { cases, problems } = exampleCases(spec);

  it('map every named example of the bundle to its schema, each shared one once', () => {
    expect(problems).toEqual([]);
    const named = cases.filter((c) => c.kind === 'named');
    expect(named.length).toBeGreaterThan(200);
    expect(named.filter((c) => c.id.startsWith('responses/BadRequest ')).map((c) => c.schema)).toEqual(['Error400']);
  });

  it('take each union value through its variant, also inside other examples', () => {
    const quote = cases.find((c) => c.schema === 'UmaAddressQuoteDestination' && c.kind === 'variant');
    expect(quote?.id).toMatch(/ at \/destination as UmaAddressQuoteDestination$/);
    expect(cases.some((c) => c.schema === 'SparkWalletInfo')).toBe(true);
  });

  it('report a body whose schema is not a named one, and an example no body uses', () => {
    const bundle = structuredClone(spec) as unknown as Json & { paths: Record<string, Record<string, Json>>; components: Json };
    const body = bundle.paths['/tokens']?.post?.requestBody as { content: Record<string, { schema: unknown }> };
    if (body.content['application/json'] === undefined) throw new Error('POST /tokens has no JSON body');
    body.content['application/json'].schema = { type: 'object', properties: { name: { type: 'string' } } };
    bundle.components.examples = { orphan: { value: {} } };
    expect(exampleCases(bundle).problems).toEqual([
      'createToken request application/json: the schema is not a $ref to a component schema, so its examples belong to no model',
      '#/components/examples/orphan: no request or response body uses it, so it belongs to no model',
    ]);
  });
});

describe('comparing an example with what a model wrote back', () => {
  it('ignores the order of keys and sees every other change', () => {
    expect(differences({ a: 1, b: [1, 2] }, { b: [1, 2], a: 1.0 })).toEqual([]);
    expect(differences({ a: 1, b: [1, 2] }, { a: 1, b: [2, 1] })).toEqual([
      { at: '/b/0', expected: 1, actual: 2 },
      { at: '/b/1', expected: 2, actual: 1 },
    ]);
    expect(differences({ a: null, 'x/y': 'v' }, { 'x/y': 'w' })).toEqual([
      { at: '/a', expected: null, actual: ABSENT },
      { at: '/x~1y', expected: 'v', actual: 'w' },
    ]);
    expect(differences({ a: '1' }, { a: 1 })).toEqual([{ at: '/a', expected: '1', actual: 1 }]);
  });

  it('compares date-times as instants, to every digit of their fraction', () => {
    expect(differences('2025-10-13T12:00:00Z', '2025-10-13T12:00:00+00:00')).toEqual([]);
    expect(differences('2025-10-13T12:00:00.000Z', '2025-10-13T14:00:00+02:00')).toEqual([]);
    expect(differences('2025-10-13T12:00:00.123456789Z', '2025-10-13T12:00:00.123456+00:00')).toHaveLength(1);
    expect(differences('2025-10-13T12:00:00Z', '2025-10-13T12:00:01Z')).toHaveLength(1);
    expect(differences('1990-04-21', '1990-04-21T00:00:00')).toHaveLength(1);
    expect(instant('2025-10-13')).toBeUndefined();
  });

  it('accepts a listed loss only where it is listed and only as a null left out', () => {
    const loss = KNOWN_LOSSES[0];
    if (loss === undefined) throw new Error('no known loss listed');
    expect(isKnownLoss('go', loss.example, { at: loss.at, expected: null, actual: ABSENT })).toBe(true);
    expect(isKnownLoss('go', loss.example, { at: loss.at, expected: null, actual: 'x' })).toBe(false);
    expect(isKnownLoss('go', loss.example, { at: '/name', expected: null, actual: ABSENT })).toBe(false);
    expect(isKnownLoss('java', loss.example, { at: loss.at, expected: null, actual: ABSENT })).toBe(false);
  });
});
