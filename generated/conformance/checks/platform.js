// The platform's own settings and credentials: the configuration (read, a no-op update, an endpoint
// the contract refuses) and API tokens (a secret shown once, permissions a token may grant, a token
// deleted stops at once, wrong secrets).
import { randomBytes } from 'node:crypto';
import { token } from "../fixtures.js";
import { check, enc } from "./define.js";
export function platformChecks() {
    return [
        check('config.get', { operations: ['getPlatformConfig'], status: 200, rule: 'the configuration never shows the webhook signing secret once it was set (PlatformConfig.webhookSigningSecret)', needs: [] }, async (t) => {
            const config = t.expect(await t.call('GET', '/config'), 200, 'getPlatformConfig answers 200');
            t.is.ok(!('webhookSigningSecret' in config), 'GET /config never shows webhookSigningSecret (spec: PlatformConfig)', 'no webhookSigningSecret', () => 'a secret');
        }),
        check('config.update', { operations: ['updatePlatformConfig', 'getPlatformConfig'], status: 200, rule: "PATCH /config changes the fields it sends and keeps the others; the kit sends the platform's own name, so nothing changes (updatePlatformConfig)" }, async (t) => {
            const before = t.expect(await t.call('GET', '/config'), 200, 'getPlatformConfig answers 200');
            const updated = t.expect(await t.call('PATCH', '/config', { body: { name: before.name } }), 200, 'updatePlatformConfig answers 200');
            t.is.contains(updated, { id: before.id, name: before.name, umaDomain: before.umaDomain, supportedCurrencies: before.supportedCurrencies }, 'fields not sent keep their values');
            t.is.ok(!('webhookSigningSecret' in updated), 'a PATCH that neither sets the first endpoint nor rotates shows no secret (spec: PlatformConfig.webhookSigningSecret)', 'no webhookSigningSecret', () => 'a secret');
        }),
        check('config.update.400-endpoint', { operations: ['updatePlatformConfig'], status: 400, rule: 'a webhook endpoint must be https (plain http only for localhost in the sandbox): anything else is 400 INVALID_INPUT (PlatformConfig.webhookEndpoint)', needs: [] }, async (t) => {
            const reply = await t.call('PATCH', '/config', { body: { webhookEndpoint: 'http://example.com/hooks' } });
            t.expectError(reply, 400, 'INVALID_INPUT', 'a plain-http endpoint that is not local is refused');
        }),
        check('tokens.create', { operations: ['createToken', 'getToken'], status: 201, rule: 'a new token answers its secret once; reading it back never shows the secret; its credentials work with its permissions (createToken, authentication guide)' }, async (t) => {
            const created = await token(t, ['VIEW', 'TRANSACT']);
            t.is.equal([...created.permissions].sort(), ['TRANSACT', 'VIEW'], 'the token holds the permissions asked for');
            t.is.ok(typeof created.clientSecret === 'string' && created.clientSecret.length > 0, 'the create answers the secret (createToken)', 'a clientSecret', () => 'none');
            const read = t.expect(await t.call('GET', `/tokens/${enc(created.id)}`), 200, 'getToken answers 200');
            t.is.contains(read, { id: created.id, name: created.name, clientId: created.clientId }, 'getToken answers the token');
            t.is.ok(!('clientSecret' in read), 'the secret is shown once, in the create (authentication guide)', 'no clientSecret', () => 'a clientSecret');
            const own = await t.call('GET', `/tokens/${enc(created.id)}`, { as: { basic: created } });
            t.expect(own, 200, "the new token's credentials authenticate, with VIEW");
            t.expectError(await t.call('POST', '/tokens', { body: { name: t.uid(), permissions: ['VIEW'] }, as: { basic: created }, key: t.key() }), 403, 'FORBIDDEN', 'without MANAGE it cannot create tokens');
        }),
        check('tokens.create.403-escalation', { operations: ['createToken', 'listTokens'], status: 403, rule: 'a token can only grant permissions it holds itself: 403 FORBIDDEN, and nothing is created (authentication guide)' }, async (t) => {
            const manager = await token(t, ['MANAGE']);
            const name = t.uid();
            const reply = await t.call('POST', '/tokens', { body: { name, permissions: ['MANAGE', 'TRANSACT'] }, as: { basic: manager }, key: t.key() });
            t.expectError(reply, 403, 'FORBIDDEN', 'a MANAGE token cannot grant TRANSACT');
            const listed = t.expect(await t.call('GET', '/tokens', { query: { name } }), 200, 'listTokens answers 200');
            t.is.equal(listed.totalCount, 0, 'the refused token was not created');
            const granted = await t.call('POST', '/tokens', { body: { name, permissions: ['MANAGE'] }, as: { basic: manager }, key: t.key() });
            const made = t.expect(granted, 201, 'a token grants what it holds');
            t.cleanup(`deleting the token ${made.id}`, () => t.http.send('DELETE', `/tokens/${enc(made.id)}`));
        }),
        check('tokens.delete', { operations: ['deleteToken', 'getToken'], status: 204, rule: 'a deleted token is gone (404 TOKEN_NOT_FOUND) and its credentials stop at once (401) (deleteToken, authentication guide)' }, async (t) => {
            const created = await token(t, ['VIEW']);
            t.expect(await t.call('DELETE', `/tokens/${enc(created.id)}`), 204, 'deleteToken answers 204');
            t.expectError(await t.call('GET', `/tokens/${enc(created.id)}`), 404, 'TOKEN_NOT_FOUND', 'a deleted token is not found');
            const denied = await t.call('GET', '/tokens', { as: { basic: created } });
            t.expectError(denied, 401, 'UNAUTHORIZED', "a deleted token's credentials are refused");
            t.is.equal(denied.body.reason, 'Invalid credentials', 'a deleted token is refused as "Invalid credentials" (authentication guide)', denied);
        }),
        check('tokens.delete.400-self', { operations: ['deleteToken'], status: 400, rule: 'a token cannot delete itself: 400 INVALID_INPUT (deleteToken)' }, async (t) => {
            const created = await token(t, ['MANAGE']);
            t.expectError(await t.call('DELETE', `/tokens/${enc(created.id)}`, { as: { basic: created } }), 400, 'INVALID_INPUT', 'a token does not delete itself');
        }),
        check('auth.wrong-secret', { operations: ['listTokens'], status: 401, rule: 'a wrong secret, of the same length or another, is 401 UNAUTHORIZED "Invalid credentials" with WWW-Authenticate Basic (authentication guide)' }, async (t) => {
            const created = await token(t, ['VIEW']);
            for (const clientSecret of [`${created.clientSecret.slice(0, -1)}${created.clientSecret.endsWith('x') ? 'y' : 'x'}`, 'short']) {
                const reply = await t.call('GET', '/tokens', { as: { basic: { clientId: created.clientId, clientSecret } } });
                t.expectError(reply, 401, 'UNAUTHORIZED', 'a wrong secret is refused');
                t.is.equal(reply.body.reason, 'Invalid credentials', 'a wrong secret is refused as "Invalid credentials" (authentication guide)', reply);
            }
            const unknown = await t.call('GET', '/tokens', { as: { basic: { clientId: randomBytes(16).toString('hex'), clientSecret: 'x' } } });
            t.expectError(unknown, 401, 'UNAUTHORIZED', 'an unknown clientId is refused');
        }),
        check('auth.malformed-header', { operations: ['getPlatformConfig'], status: 401, rule: 'an Authorization header that is not HTTP Basic credentials is 401 UNAUTHORIZED "Missing Basic credentials" (authentication guide)', needs: [] }, async (t) => {
            for (const authorization of ['Bearer abc', 'Basic !!!not-base64', `Basic ${Buffer.from('no-colon').toString('base64')}`]) {
                const reply = await t.call('GET', '/config', { as: { authorization } });
                t.expectError(reply, 401, 'UNAUTHORIZED', `"${authorization}" is not Basic credentials`);
            }
        }),
        check('auth.lockout', { operations: ['getPlatformConfig'], status: 429, rule: 'after 10 failed authentications of a clientId within 5 minutes even its right secret gets 429 TOO_MANY_FAILED_AUTHENTICATIONS; other clientIds are not affected (authentication guide)' }, async (t) => {
            const locked = await token(t, ['VIEW']);
            const other = await token(t, ['VIEW']);
            for (let i = 0; i < 10; i++) {
                t.expectError(await t.call('GET', '/config', { as: { basic: { clientId: locked.clientId, clientSecret: `wrong-${i}` } } }), 401, 'UNAUTHORIZED', `failure ${i + 1} of 10 is a 401`);
            }
            const right = await t.call('GET', '/config', { as: { basic: locked } });
            t.expectError(right, 429, 'TOO_MANY_FAILED_AUTHENTICATIONS', 'the right secret is refused too once locked out');
            t.expect(await t.call('GET', '/config', { as: { basic: other } }), 200, 'another clientId is not locked out');
        }),
    ];
}
