// Bad input gets a documented 4xx in the error shape, never a 500, and nothing is half-written.
// Each case is a defect that probing the server with hostile and careless input once found: NUL
// bytes and lone surrogates, impossible dates, numbers that are not finite, forged cursors,
// malformed multipart bodies, JSON values of the wrong type that used to be coerced, missing
// bodies, and validation errors of union bodies that named every branch but the right one.
import { describe, expect } from 'vitest';
import { connectAgent } from '../support/agents.ts';
import { handlers } from '../../server/operations.ts';
import { notImplemented } from '../../server/context/handler-types.ts';
import { api, baseUrl, credentials, describeServer, errorOf, idempotencyKey, itServer, raw, unique } from '../support/api.ts';
import { externalAccountInfo } from '../support/external-account-info.ts';
import { balanceOf, createBusinessCustomer, newCustomerAccount, newCustomerId, ownerPersonalInfo } from '../support/factories.ts';
import { basicAuth, jsonBody, jsonText } from '../support/raw-requests.ts';
import { deref, operations } from '../support/spec.ts';

const json = (body: unknown) => (typeof body === 'string' ? jsonText(body) : jsonBody(body));
const basic = basicAuth(credentials);
const newAccountId = async () => (await newCustomerAccount('USD')).id;

const customersNamed = async (platformCustomerId: string) => (await api.GET('/customers', { params: { query: { platformCustomerId } } })).data?.totalCount;

async function expect400(res: Response, field?: string): Promise<void> {
  expect(res.status).toBe(400);
  const error = await errorOf(res);
  expect(['INVALID_INPUT', 'INVALID_CURSOR']).toContain(error.code);
  if (field !== undefined) expect(error.details?.errors?.map((e) => e.field)).toContain(field);
}

/** The paginated lists the server implements, from the spec. */
const lists = operations.filter(
  (o) => o.method === 'get' && handlers[o.operation.operationId as keyof typeof handlers] !== notImplemented && (o.operation.parameters ?? []).some((p) => JSON.stringify(p).includes('Limit')),
);

describeServer('strings the database cannot store', () => {
  itServer('a NUL byte or a lone surrogate in a JSON body is 400 naming the field, and nothing is created', async () => {
    const id = `hard-${unique()}`;
    for (const body of [
      `{"customerType":"INDIVIDUAL","platformCustomerId":"${id}","fullName":"Jane\\u0000Doe"}`,
      `{"customerType":"INDIVIDUAL","platformCustomerId":"${id}","fullName":"Jane\\ud800Doe"}`,
      `{"customerType":"INDIVIDUAL","platformCustomerId":"${id}","address":{"line1":"1 Main St\\udfff","postalCode":"1","country":"US"}}`,
    ]) {
      await expect400(await raw('POST', '/customers', json(body)));
    }
    const named = await raw('POST', '/customers', json(`{"customerType":"INDIVIDUAL","platformCustomerId":"${id}","fullName":"Jane\\u0000Doe"}`));
    expect((await errorOf(named)).details?.errors?.[0]?.field).toBe('/fullName');
    expect(await customersNamed(id)).toBe(0);
  });

  itServer('a NUL byte or a lone surrogate in a query filter, a path id or a cursor is 400', async () => {
    await expect400(await raw('GET', '/customers?platformCustomerId=a%00b'), 'query.platformCustomerId');
    await expect400(await raw('GET', '/tokens?name=%00'), 'query.name');
    await expect400(await raw('GET', '/customers/Customer%3A019542f5-b3e7-1d02-0000-00000000%0001'));
    await expect400(await raw('GET', '/customers?cursor=abc%00def'));
  });

  itServer('a NUL byte in the Basic user name is 401 and reveals nothing of the database', async () => {
    const res = await raw('GET', '/config', { auth: false, headers: { Authorization: `Basic ${Buffer.from(`ab\u0000cd:${credentials.clientSecret}`).toString('base64')}` } });
    expect(res.status).toBe(401);
    expect(await errorOf(res)).toMatchObject({ code: 'UNAUTHORIZED', reason: 'Invalid credentials' });
  });
});

describeServer('query strings', () => {
  itServer('a space written as + (URLSearchParams, HTML forms) is a space, as %20 is; a literal plus is %2B', async () => {
    const plus = await raw('GET', '/tokens?name=two+words');
    expect(plus.status).toBe(200);
    expect(await plus.text()).toBe(await (await raw('GET', '/tokens?name=two%20words')).text());
    expect((await raw('GET', '/tokens?name=two%2Bwords')).status).toBe(200);
  });
});

describeServer('dates and date-times', () => {
  itServer('impossible date-times in filters are 400 on every list that takes them', async () => {
    const impossible = ['2025-13-01T00:00:00Z', '2025-02-30T10:00:00Z', '2025-01-01T23:59:60Z', '2025-01-01T24:00:00Z', '2025-01-01T10:00:00+24:00', '2025-01-01T10:60:00Z', '0000-01-01T00:00:00Z'];
    for (const value of impossible) {
      for (const path of ['/tokens', '/customers']) {
        await expect400(await raw('GET', `${path}?createdAfter=${encodeURIComponent(value)}`), 'query.createdAfter');
      }
    }
    // The same filters, possible, and as a browser or curl sends them (colons unencoded).
    expect((await raw('GET', '/tokens?createdAfter=2024-02-29T23:59:59.999Z')).status).toBe(200);
    expect((await raw('GET', '/customers?createdBefore=2099-01-01T00:00:00+02:00'.replace('+', '%2B'))).status).toBe(200);
  });

  itServer('a birth date that does not exist is 400 and is not stored', async () => {
    const id = `hard-${unique()}`;
    await expect400(await raw('POST', '/customers', json({ customerType: 'INDIVIDUAL', platformCustomerId: id, birthDate: '2025-02-30' })), '/birthDate');
    await expect400(await raw('POST', '/customers', json({ customerType: 'INDIVIDUAL', platformCustomerId: id, birthDate: '1990-04-31' })), '/birthDate');
    expect(await customersNamed(id)).toBe(0);
    expect((await raw('POST', '/customers', json({ customerType: 'INDIVIDUAL', platformCustomerId: id, birthDate: '2024-02-29' }))).status).toBe(201);
  });
});

describeServer('numbers', () => {
  itServer(`limit must be a decimal integer from 1 to 100 on all ${lists.length} lists`, async () => {
    expect(lists.length).toBeGreaterThanOrEqual(9);
    const agent = await connectAgent();
    for (const list of lists) {
      // Every required query parameter with its example (customerId, a wallet's accountId), so that limit is what is wrong.
      const required = (list.operation.parameters ?? [])
        .map((p) => deref<{ name: string; in: string; required?: boolean; example?: unknown }>(p))
        .filter((p) => p.in === 'query' && p.required === true)
        .map((p) => `${p.name}=${encodeURIComponent(String(p.example))}&`)
        .join('');
      const path = list.path.replace('{agentId}', encodeURIComponent(agent.agentId));
      const base = `${path}?${required}`;
      // Bearer operations take the agent's token: the limit is checked after authentication.
      const bearer = (list.operation.security ?? []).some((s) => 'bearerAuth' in s);
      for (const limit of ['Infinity', '1e400', '-Infinity', 'NaN', '0x10', '%201', '1e1', '1.0', '0', '101']) {
        const res = await raw('GET', `${base}limit=${limit}`, bearer ? { auth: false, headers: { Authorization: `Bearer ${agent.accessToken}` } } : {});
        expect(res.status, `${list.operation.operationId} limit=${limit}`).toBe(400);
        expect((await errorOf(res)).details?.errors?.[0]?.field).toBe('query.limit');
      }
    }
  });

  itServer('an amount that is a string, a boolean or not finite is 400 and credits nothing', async () => {
    const account = await newAccountId();
    for (const amount of ['"Infinity"', '1e400', '-1e400', '"0x10"', '"100"', 'true', 'null', '[100]', '100.5']) {
      await expect400(await raw('POST', `/sandbox/internal-accounts/${account}/fund`, json(`{"amount":${amount}}`)), '/amount');
    }
    expect(await balanceOf(account)).toBe(0);
  });

  itServer('a UBO ownershipPercentage of null is 400, not an owner with 0 %', async () => {
    const business = await createBusinessCustomer();
    const owner = { customerId: business.id, roles: ['UBO'], ownershipPercentage: null, personalInfo: ownerPersonalInfo() };
    await expect400(await raw('POST', '/beneficial-owners', json(owner)), '/ownershipPercentage');
    const { data } = await api.GET('/beneficial-owners', { params: { query: { customerId: business.id } } });
    expect(data?.totalCount).toBe(0);
  });
});

describeServer('cursors', () => {
  itServer('a forged or edited cursor is 400 INVALID_CURSOR; a real one pages on', async () => {
    await newCustomerId();
    await newCustomerId();
    const first = await api.GET('/customers', { params: { query: { limit: 1 } } });
    const cursor = first.data?.nextCursor ?? '';
    expect(cursor).not.toBe('');
    const [payload = '', mac = ''] = cursor.split('.');
    const decoded = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, string>;
    const reencode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const forged = [
      reencode({ c: '+275760-09-13T00:00:00.000Z', i: 'Customer:x', f: decoded.f }), // an unsigned cursor of the old kind
      `${reencode({ ...decoded, c: '+275760-09-13T00:00:00.000Z' })}.${mac}`, // a date PostgreSQL cannot store
      `${reencode({ ...decoded, i: 'Customer:\u0000' })}.${mac}`, // a NUL in the id
      `${payload}.${mac.slice(0, -2)}${mac.endsWith('AA') ? 'BA' : 'AA'}`, // another signature (1 in 256 ends in AA already)
      `${payload}.${mac}.extra`,
      'not-a-cursor',
    ];
    for (const bad of forged) {
      const res = await raw('GET', `/customers?limit=1&cursor=${encodeURIComponent(bad)}`);
      expect(res.status, bad).toBe(400);
      expect((await errorOf(res)).code).toBe('INVALID_CURSOR');
    }
    const next = await raw('GET', `/customers?limit=1&cursor=${encodeURIComponent(cursor)}`);
    expect(next.status).toBe(200);
  });
});

describeServer('bodies', () => {
  itServer('a malformed multipart body is 400 and uploads nothing', async () => {
    const customerId = await newCustomerId();
    const part = (boundary: string) => `--${boundary}\r\nContent-Disposition: form-data; name="documentHolder"\r\n\r\n${customerId}\r\n`;
    for (const [type, body] of [
      ['multipart/form-data; boundary=nomatch', `${part('other')}--other--\r\n`],
      ['multipart/form-data; boundary=b', part('b')], // cut short
      ['multipart/form-data; boundary=b', ''],
      ['multipart/form-data', `${part('b')}--b--\r\n`], // no boundary at all
    ] as const) {
      const res = await raw('POST', '/documents', { headers: { 'content-type': type }, body });
      expect(res.status, type).toBe(400);
      expect((await errorOf(res)).code).toBe('INVALID_INPUT');
    }
    const { data } = await api.GET('/documents', { params: { query: { documentHolder: customerId } } });
    expect(data?.totalCount).toBe(0);
  });

  itServer('a request without its body is 400, never a 500', async () => {
    const customerId = await newCustomerId();
    for (const [method, path] of [['POST', '/customers'], ['PATCH', `/customers/${customerId}`], ['PATCH', '/config'], ['POST', '/tokens']] as const) {
      const bare = await raw(method, path);
      expect(bare.status, `${method} ${path}`).toBe(400);
      const empty = await raw(method, path, { headers: { 'content-type': 'application/json' }, body: '' });
      expect(empty.status, `${method} ${path} (empty)`).toBe(400);
    }
  });

  itServer('one invalid field of a union body is one error, on that field of the selected branch', async () => {
    const customerId = await newCustomerId();
    const account = { accountType: 'USD_ACCOUNT', accountNumber: '000123456789', routingNumber: '021000021', bankAccountType: 'CHECKING', beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Jane Doe' } };
    const badRouting = await raw('POST', '/customers/external-accounts', json({ customerId, currency: 'USD', accountInfo: { ...account, routingNumber: '12' } }));
    expect(badRouting.status).toBe(400);
    expect((await errorOf(badRouting)).details?.errors).toEqual([{ field: '/accountInfo/routingNumber', message: 'must match pattern "^[0-9]{9}$"', constraint: 'pattern' }]);

    const unknownType = await raw('POST', '/customers/external-accounts', json({ customerId, currency: 'USD', accountInfo: { ...account, accountType: 'CHEQUE_ACCOUNT' } }));
    expect((await errorOf(unknownType)).details?.errors?.map((e) => [e.field, e.constraint])).toEqual([['/accountInfo/accountType', 'enum']]);
  });

  itServer('an unknown property is reported under its own name, at any depth', async () => {
    const customerId = await newCustomerId();
    const res = await raw('POST', '/customers/external-accounts', json({ customerId, currency: 'EUR', colour: 'red', accountInfo: { ...externalAccountInfo.eur(), nickname: 'x' } }));
    expect(res.status).toBe(400);
    const fields = (await errorOf(res)).details?.errors?.map((e) => e.field);
    expect(fields).toContain('/colour');
    expect(fields).toContain('/accountInfo/nickname');
    expect(fields).not.toContain('/');
    const top = await raw('POST', '/tokens', json({ name: 'x', permissions: ['VIEW'], expiresAt: 'never' }));
    expect((await errorOf(top)).details?.errors?.map((e) => e.field)).toEqual(['/expiresAt']);
  });
});

describeServer('HTTP details', () => {
  itServer('the Basic scheme name is case-insensitive', async () => {
    for (const scheme of ['basic', 'BASIC', 'bAsIc']) {
      const res = await raw('GET', '/config', { auth: false, headers: { Authorization: basic.replace('Basic', scheme) } });
      expect(res.status, scheme).toBe(200);
    }
  });

  itServer('an id sent as Customer%3A... or Customer:... is the same id, also for an Idempotency-Key', async () => {
    const account = await newAccountId();
    const key = idempotencyKey();
    const fund = (path: string) => raw('POST', path, { headers: { 'content-type': 'application/json', 'Idempotency-Key': key }, body: JSON.stringify({ amount: 250 }) });
    const first = await fund(`/sandbox/internal-accounts/${account}/fund`);
    expect(first.status).toBe(200);
    const encoded = await fund(`/sandbox/internal-accounts/${account.replace(':', '%3A')}/fund`);
    expect(encoded.status).toBe(200);
    expect(encoded.headers.get('idempotent-replayed')).toBe('true');
    expect(await balanceOf(account)).toBe(250);
    expect((await fetch(`${baseUrl}/customers/${(await api.GET('/internal-accounts/{accountId}', { params: { path: { accountId: account } } })).data?.customerId?.replace(':', '%3A')}`, { headers: { Authorization: basic } })).status).toBe(200);
  });
});
