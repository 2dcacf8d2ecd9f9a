import { CheckFailure } from "../check.js";
import { schemaViolations } from "../contract.js";
import { tokenWithout } from "../fixtures.js";
import { check } from "./define.js";
/** An answer outside the operations: the error shape, its status repeated, an X-Request-Id. */
function errorShape(t, reply, status, code, rule) {
    t.is.ok(reply.headers.get('x-request-id') !== null, 'every response carries an X-Request-Id header (errors guide)', 'an X-Request-Id', () => 'none', reply);
    const [violation] = schemaViolations('#/components/schemas/Error', reply.body);
    if (violation !== undefined)
        throw new CheckFailure(`${rule}, in the error shape (errors guide)`, 'a body valid under Error', violation.problem, reply);
    t.expectError(reply, status, code, rule);
}
export function errorChecks() {
    return [
        check('errors.route-not-found', { operations: [], status: 404, rule: 'a path the API does not have answers 404 ROUTE_NOT_FOUND in the error shape (errors guide)', needs: [] }, async (t) => {
            const reply = await t.http.send('GET', '/no-such-route-in-this-api');
            errorShape(t, reply, 404, 'ROUTE_NOT_FOUND', 'an unknown path is 404 ROUTE_NOT_FOUND');
        }),
        check('errors.method-not-allowed', { operations: [], status: 405, rule: 'a method a path does not have answers 405 METHOD_NOT_ALLOWED in the error shape (errors guide)', needs: [] }, async (t) => {
            const reply = await t.http.send('PUT', '/customers', { body: {} });
            errorShape(t, reply, 405, 'METHOD_NOT_ALLOWED', 'PUT /customers is 405 METHOD_NOT_ALLOWED');
        }),
        check('errors.precedence', { operations: ['createCustomer'], status: 401, rule: 'a request with several problems gets the first of: credentials (401), permission (403), input (400): a caller that may not call an operation learns nothing of what it accepts (errors guide)' }, async (t) => {
            const invalid = { raw: { body: '{"customerType": "INDIVIDUAL", ', contentType: 'application/json' } };
            const anonymous = await t.call('POST', '/customers', { ...invalid, as: 'anonymous' });
            t.expectError(anonymous, 401, 'UNAUTHORIZED', 'no credentials come before a body that is not JSON');
            const viewer = await tokenWithout(t, 'MANAGE');
            t.expectError(await t.call('POST', '/customers', { ...invalid, as: { basic: viewer } }), 403, 'FORBIDDEN', 'the permission comes before a body that is not JSON');
            t.expectError(await t.call('POST', '/customers', invalid), 400, 'INVALID_INPUT', 'a body that is not JSON is 400 INVALID_INPUT');
        }),
    ];
}
