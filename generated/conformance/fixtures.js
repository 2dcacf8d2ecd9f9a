// The objects checks start from, made through the public API under the run's prefix. A maker
// returns what it made or fails the check with the step that went wrong. Identifiers the sandbox
// reads for an outcome (account numbers, names) end with the outcome's suffix.
import { randomInt } from 'node:crypto';
import { CheckFailure } from "./check.js";
export const PERMISSIONS = ['VIEW', 'TRANSACT', 'MANAGE'];
export const AGENT_PERMISSIONS = ['VIEW_TRANSACTIONS', 'CREATE_TRANSFERS', 'CREATE_QUOTES', 'EXECUTE_QUOTES', 'MANAGE_EXTERNAL_ACCOUNTS'];
const digits = (n) => Array.from({ length: n }, () => String(randomInt(10))).join('');
const jane = { beneficiaryType: 'INDIVIDUAL', fullName: 'Jane Doe' };
/** accountInfo of an external account, one per kind; its identifier is random and ends with `suffix`. */
export const accountInfo = {
    usd: (suffix = '000') => ({ accountType: 'USD_ACCOUNT', accountNumber: `${digits(9)}${suffix}`, routingNumber: '021000021', bankAccountType: 'CHECKING', bankName: 'JPMorgan Chase Bank', beneficiary: jane }),
    eur: (suffix = '000') => ({ accountType: 'EUR_ACCOUNT', iban: `FR14${digits(19)}${suffix}`, swiftCode: 'PSSTFRPPPAR', beneficiary: { beneficiaryType: 'BUSINESS', fullName: 'Northwind Payouts SAS', registrationNumber: '552120222' } }),
    mxn: (suffix = '000') => ({ accountType: 'MXN_ACCOUNT', clabe: `${digits(15)}${suffix}`, bankName: 'BBVA México', beneficiary: { beneficiaryType: 'BUSINESS', fullName: 'Proveedora del Norte S.A. de C.V.' } }),
    spark: (suffix = '000') => ({ accountType: 'SPARK_WALLET', address: `sp1pgss${digits(20)}${suffix}` }),
};
/** A beneficial owner's personal data; the sandbox reads the last 3 characters of lastName. */
export const ownerPersonalInfo = (lastName = 'Smith') => ({
    firstName: 'John',
    lastName,
    birthDate: '1978-11-05',
    nationality: 'US',
    address: { line1: '1200 Valencia Street', postalCode: '94110', country: 'US' },
    idType: 'SSN',
    identifier: '987-65-4321',
});
const id = (value) => encodeURIComponent(value);
/** A new individual customer holding `currencies` (USD by default). */
export async function individual(t, fields = {}) {
    const reply = await t.call('POST', '/customers', { body: { customerType: 'INDIVIDUAL', platformCustomerId: t.uid(), fullName: 'Jane Doe', currencies: ['USD'], ...fields } });
    return t.expect(reply, 201, 'a created customer is answered 201 (createCustomer)');
}
/** A new business customer. */
export async function business(t, fields = {}, businessInfo = {}) {
    const reply = await t.call('POST', '/customers', {
        body: { customerType: 'BUSINESS', platformCustomerId: t.uid(), currencies: ['USD'], ...fields, businessInfo: { legalName: 'Acme Corporation', country: 'US', ...businessInfo } },
    });
    return t.expect(reply, 201, 'a created customer is answered 201 (createCustomer)');
}
/** The customer's internal accounts, or those in one currency. */
export async function accountsOf(t, customerId, currency) {
    const reply = await t.call('GET', '/customers/internal-accounts', { query: { customerId, currency, limit: 100 } });
    return t.expect(reply, 200, 'listCustomerInternalAccounts answers 200').data;
}
/** The customer's internal account in `currency` (not an Embedded Wallet). */
export async function accountOf(t, customerId, currency = 'USD') {
    const account = (await accountsOf(t, customerId, currency)).find((a) => a.type !== 'EMBEDDED_WALLET');
    if (account === undefined)
        throw new CheckFailure('a customer has an internal account in each of its currencies (createCustomer)', `a ${currency} account of ${customerId}`, 'none');
    return account;
}
/** Sandbox funding of an internal account; returns the account as answered. */
export async function fund(t, accountId, amount) {
    const reply = await t.call('POST', `/sandbox/internal-accounts/${id(accountId)}/fund`, { body: { amount }, key: t.key() });
    return t.expect(reply, 200, 'sandbox funding answers 200 with the account (fundSandboxInternalAccount)');
}
export async function balanceOf(t, accountId) {
    const reply = await t.call('GET', `/internal-accounts/${id(accountId)}`);
    return t.expect(reply, 200, 'getInternalAccount answers 200').balance.amount;
}
/** A new customer's internal account in `currency`, funded with `amount` when given. */
export async function account(t, currency = 'USD', amount) {
    const customer = await individual(t, { currencies: [currency] });
    const acct = await accountOf(t, customer.id, currency);
    const funded = amount === undefined ? acct : await fund(t, acct.id, amount);
    return { ...funded, customerId: customer.id };
}
/** A customer's external account. */
export async function externalAccount(t, customerId, currency, info) {
    const reply = await t.call('POST', '/customers/external-accounts', { body: { customerId, currency, accountInfo: info }, key: t.key() });
    return t.expect(reply, 201, 'a created external account is answered 201 (createCustomerExternalAccount)');
}
/** A funded USD account and an external USD account of the same customer ending in `suffix`. */
export async function accountPair(t, suffix = '000', amount = 100_000, currency = 'USD') {
    const internal = await account(t, currency, amount);
    const info = { USD: accountInfo.usd, EUR: accountInfo.eur, MXN: accountInfo.mxn }[currency](suffix);
    const external = await externalAccount(t, internal.customerId, currency, info);
    return { internal, external, customerId: internal.customerId };
}
/** A new API token with these permissions, deleted when the run ends. */
export async function token(t, permissions, name = t.uid()) {
    const reply = await t.call('POST', '/tokens', { body: { name, permissions }, key: t.key() });
    const created = t.expect(reply, 201, 'a created token is answered 201 with its secret (createToken)');
    t.cleanup(`deleting the token ${created.id}`, async () => {
        const gone = await t.http.send('DELETE', `/tokens/${id(created.id)}`);
        if (gone.status !== 204 && gone.status !== 404)
            throw new Error(`DELETE /tokens/${created.id} answered ${gone.status}`);
    });
    return created;
}
/** A token (shared by the run) holding every permission but `permission`. */
export const tokenWithout = (t, permission) => t.once(`token-without-${permission}`, () => token(t, PERMISSIONS.filter((p) => p !== permission)));
/** An agent of `customerId` (a new customer by default) with this policy, connected; deleted when the run ends. */
export async function agent(t, policy = {}, customerId) {
    const owner = customerId ?? (await individual(t)).id;
    const full = { permissions: AGENT_PERMISSIONS, defaultExecutionMode: 'AUTO', spendingLimits: { currency: 'USD', perTransactionLimit: 50_000 }, ...policy };
    const created = t.expect(await t.call('POST', '/agents', { body: { name: t.uid(), customerId: owner, policy: full }, key: t.key() }), 201, 'a created agent is answered 201 with its device code (createAgent)');
    t.cleanup(`deleting the agent ${created.agent.id}`, async () => {
        const gone = await t.http.send('DELETE', `/agents/${id(created.agent.id)}`);
        if (gone.status !== 204 && gone.status !== 404)
            throw new Error(`DELETE /agents/${created.agent.id} answered ${gone.status}`);
    });
    const redeemed = await t.call('POST', `/agents/device-codes/${id(created.deviceCode.code)}/redeem`, { as: 'anonymous' });
    const { accessToken } = t.expect(redeemed, 200, 'a device code is redeemed without credentials, answering the access token (redeemAgentDeviceCode)');
    return { agentId: created.agent.id, customerId: owner, accessToken };
}
/** A connected agent shared by the run, with every permission. */
export const sharedAgent = (t) => t.once('agent', () => agent(t));
/** An agent (shared by the run) whose policy grants every permission but `permission`. */
export const agentWithout = (t, permission) => t.once(`agent-without-${permission}`, () => agent(t, { permissions: AGENT_PERMISSIONS.filter((p) => p !== permission) }));
/** A beneficial owner of a business customer (a UBO and director with 40 % unless `fields` say otherwise). */
export async function owner(t, customerId, fields = {}) {
    const body = { customerId, roles: ['UBO', 'DIRECTOR'], ownershipPercentage: 40, personalInfo: ownerPersonalInfo(), ...fields };
    return t.expect(await t.call('POST', '/beneficial-owners', { body, key: t.key() }), 201, 'a created beneficial owner is answered 201 (createBeneficialOwner)');
}
/** A small file of a type the API takes. */
export const pdfFile = (size = 600, name = 'passport.pdf') => Object.assign(new Blob([`%PDF-1.7\n`.padEnd(size, ' ')], { type: 'application/pdf' }), { name });
/** The multipart body of an upload: the fields and the file. */
export function uploadForm(fields, file = { blob: pdfFile(), name: 'passport.pdf' }) {
    const form = new FormData();
    for (const [k, v] of Object.entries(fields))
        if (v !== undefined)
            form.append(k, v);
    if (file !== undefined)
        form.append('file', file.blob, file.name);
    return form;
}
/** An uploaded document of `documentHolder` (a customer or a beneficial owner). */
export async function document(t, documentHolder, fields = {}) {
    const form = uploadForm({ documentHolder, documentType: 'PASSPORT', country: 'US', ...fields });
    return t.expect(await t.call('POST', '/documents', { form, key: t.key() }), 201, 'an uploaded document is answered 201 (uploadDocument)');
}
/** A verification of a customer. */
export async function verification(t, customerId) {
    return t.expect(await t.call('POST', '/verifications', { body: { customerId }, key: t.key() }), 200, 'createVerification answers 200 with the verification');
}
/** Makes `count` objects one after the other (lists are newest first: creation order matters). */
export async function inOrder(count, make) {
    const out = [];
    for (let i = 0; i < count; i++)
        out.push(await make(i));
    return out;
}
