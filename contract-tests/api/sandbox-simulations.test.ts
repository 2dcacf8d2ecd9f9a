// Sandbox simulations (tag Sandbox, POST /sandbox/...): a payment completed, failed or returned on
// demand, a bank payment received, a KYC or KYB decided, a verification under review decided, a
// pending name check answered, and a sample webhook of any type sent. Each through the public
// interface, with the money read back to the minor unit and the 409 that names the transitions the
// state machine allows. The webhooks they send are checked on a server of the file's own. The 403
// of a production token is the conformance kit's no-sandbox rule (conformance/broken.test.ts); an
// object of another platform is the auth matrix's "another platform" row (auth-matrix.test.ts).
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import type { components } from '../../generated/openapi.js';
import type { PaymentsClient } from '../../client/index.ts';
import { api, describeServer, isMock, itServer, raw } from '../support/api.ts';
import { externalAccountInfo } from '../support/external-account-info.ts';
import {
  balanceOf,
  created,
  createBusinessCustomer,
  createExternalAccount,
  createIndividualCustomer,
  customerInternalAccount,
  customerWithExternalAccount,
  examples,
  getTransaction,
  transferIn,
} from '../support/factories.ts';
import { ownServer, ownWebhookReceiver } from '../support/own-server.ts';
import { codeOf, jsonBody } from '../support/raw-requests.ts';
import { validateAgainst } from '../support/schema-validator.ts';
import { deref, spec } from '../support/spec.ts';

type Schemas = components['schemas'];

/** The spec's example ids, which the Prism mock answers for. */
const example = {
  transactionId: 'Transaction:019542f5-b3e7-1d02-0000-000000000028',
  customerId: examples.individualCustomerId,
  externalAccountId: 'ExternalAccount:019542f5-b3e7-1d02-0000-000000000006',
  internalAccountId: examples.internalAccountId,
};

const complete = (transactionId: string, via: PaymentsClient = api) => via.POST('/sandbox/transactions/{transactionId}/complete', { params: { path: { transactionId } } });
const fail = (transactionId: string, failureReason: Schemas['SandboxFailureReason'], via: PaymentsClient = api) =>
  via.POST('/sandbox/transactions/{transactionId}/fail', { params: { path: { transactionId } }, body: { failureReason } });
const returned = (transactionId: string, via: PaymentsClient = api) => via.POST('/sandbox/transactions/{transactionId}/return', { params: { path: { transactionId } } });
const receive = (accountId: string, body: Schemas['SandboxIncomingPaymentRequest'], via: PaymentsClient = api) =>
  via.POST('/sandbox/internal-accounts/{accountId}/receive', { params: { path: { accountId } }, body });

/** The 409 of a move the state machine does not allow, with what it allows from the current status. */
function expectNotAllowed(result: { error?: unknown; response: Response }, status: string, allowedTransitions: string[]): void {
  expect(result.response.status).toBe(409);
  expect(result.error).toMatchObject({ status: 409, code: 'TRANSITION_NOT_ALLOWED', details: { status, allowedTransitions } });
}

/** A transfer-out of `amount` from a funded account to an external account ending in `suffix`. */
async function payout(suffix: string, funding: number, amount: number, via?: PaymentsClient) {
  const { internal, external, customer } = await customerWithExternalAccount(suffix, { funding, ...(via === undefined ? {} : { via }) });
  const tx = created(await (via ?? api).POST('/transfer-out', { body: { source: { accountId: internal.id }, destination: { accountId: external.id }, amount } }));
  return { tx, internal, external, customer };
}

describe('simulateTransactionCompletion', () => {
  it('200: completes a payment under way', async () => {
    const transactionId = isMock ? example.transactionId : (await payout('005', 50_000, 20_000)).tx.id;
    const { data, response } = await complete(transactionId);
    expect(response.status).toBe(200);
    expect(data?.status).toBe('COMPLETED');
  });

  itServer('200: a PENDING transfer-out (account ending in 005) completes at once: its hold settles, settledAt is set, the scheduled failure no longer applies', async () => {
    const { tx, internal } = await payout('005', 50_000, 20_000);
    expect(tx.status).toBe('PENDING');
    expect(await balanceOf(internal.id)).toBe(30_000);
    const { data } = await complete(tx.id);
    expect(data).toMatchObject({ id: tx.id, status: 'COMPLETED', createdAt: tx.createdAt });
    expect(Date.parse(data?.settledAt ?? '')).toBeGreaterThanOrEqual(Date.parse(tx.createdAt));
    expect(data).not.toHaveProperty('failureReason');
    expect(await getTransaction(tx.id)).toEqual(data);
    expect(await balanceOf(internal.id)).toBe(30_000);
    // Failing it now is a return only: the 30-second failure the sandbox scheduled is gone with PENDING.
    expectNotAllowed(await fail(tx.id, 'BANK_REJECTED'), 'COMPLETED', ['FAILED']);
  });

  itServer('200: a PROCESSING transfer-in (account ending in 004) completes and credits its amount once', async () => {
    const { internal, external } = await customerWithExternalAccount('004');
    const tx = created(await transferIn({ source: { accountId: external.id }, destination: { accountId: internal.id }, amount: 7_501 }));
    expect(tx?.status).toBe('PROCESSING');
    expect(await balanceOf(internal.id)).toBe(0);
    const { data } = await complete(tx?.id ?? '');
    expect(data).toMatchObject({ type: 'INCOMING', status: 'COMPLETED', receivedAmount: { amount: 7_501 } });
    expect(await balanceOf(internal.id)).toBe(7_501);
  });

  itServer('409: a COMPLETED, FAILED or approval-waiting payment names the transitions its status allows', async () => {
    const { tx } = await payout('000', 10_000, 1_000);
    expect(tx.status).toBe('COMPLETED');
    expectNotAllowed(await complete(tx.id), 'COMPLETED', ['FAILED']);
    const refused = await payout('002', 10_000, 1_000);
    expect(refused.tx.status).toBe('FAILED');
    expectNotAllowed(await complete(refused.tx.id), 'FAILED', []);
    expect(await balanceOf(refused.internal.id)).toBe(10_000);
  });

  it('404: an unknown transaction, as if it did not exist', async () => {
    const res = await raw('POST', `/sandbox/transactions/${encodeURIComponent('Transaction:019542f5-b3e7-1d02-0000-0000000000ff')}/complete`);
    expect(res.status).toBe(isMock ? 200 : 404);
    if (!isMock) expect(await codeOf(res)).toBe('TRANSACTION_NOT_FOUND');
  });

  it('400: a malformed transaction id', async () => {
    const res = await raw('POST', '/sandbox/transactions/tx-1/complete');
    expect(isMock ? [400, 422] : [400]).toContain(res.status);
  });

  it('401: requires credentials', async () => {
    const res = await raw('POST', `/sandbox/transactions/${encodeURIComponent(example.transactionId)}/complete`, { auth: false });
    expect(res.status).toBe(401);
  });
});

describe('simulateTransactionFailure', () => {
  it('200: fails a payment under way with the reason given', async () => {
    const transactionId = isMock ? example.transactionId : (await payout('005', 50_000, 20_000)).tx.id;
    const { data, response } = await fail(transactionId, 'BANK_REJECTED');
    expect(response.status).toBe(200);
    expect(data?.status).toBe('FAILED');
  });

  itServer('200: every documented failure reason of a failure; the held amount comes back once, except with REFUND_FAILED', async () => {
    // Every reason of TransactionFailureReason but those of the REJECTED and CANCELLED statuses.
    const reasons = deref<{ enum: Schemas['SandboxFailureReason'][] }>(spec.components.schemas?.TransactionFailureReason).enum.filter((r) => r !== ('PLATFORM_REJECTED' as string) && r !== ('CANCELLED' as string));
    expect(reasons.length).toBe(11);
    for (const failureReason of reasons) {
      const { tx, internal } = await payout('005', 10_000, 4_000);
      const { data, response } = await fail(tx.id, failureReason);
      expect(response.status, failureReason).toBe(200);
      expect(data).toMatchObject({ status: 'FAILED', failureReason });
      expect(data).not.toHaveProperty('settledAt');
      expect(await balanceOf(internal.id), failureReason).toBe(failureReason === 'REFUND_FAILED' ? 6_000 : 10_000);
    }
  });

  itServer('200: a PROCESSING transfer-out (account ending in 004) fails at once; a second failure is refused', async () => {
    const { tx, internal } = await payout('004', 9_000, 9_000);
    expect(tx.status).toBe('PROCESSING');
    const { data } = await fail(tx.id, 'ACCOUNT_CLOSED');
    expect(data).toMatchObject({ status: 'FAILED', failureReason: 'ACCOUNT_CLOSED' });
    expect(await balanceOf(internal.id)).toBe(9_000);
    expectNotAllowed(await fail(tx.id, 'BANK_REJECTED'), 'FAILED', []);
    expect(await balanceOf(internal.id)).toBe(9_000);
  });

  itServer('400: PLATFORM_REJECTED and CANCELLED are not reasons of a failure, a reason is required; nothing moves', async () => {
    const { tx, internal } = await payout('005', 5_000, 5_000);
    for (const failureReason of ['PLATFORM_REJECTED', 'CANCELLED', 'LOST_IN_THE_MAIL'] as const) {
      const res = await raw('POST', `/sandbox/transactions/${encodeURIComponent(tx.id)}/fail`, jsonBody({ failureReason }));
      expect(res.status).toBe(400);
      expect(await codeOf(res)).toBe('INVALID_INPUT');
    }
    const empty = await raw('POST', `/sandbox/transactions/${encodeURIComponent(tx.id)}/fail`, jsonBody({}));
    expect(empty.status).toBe(400);
    expect((await getTransaction(tx.id)).status).toBe('PENDING');
    expect(await balanceOf(internal.id)).toBe(0);
  });

  itServer('404: an unknown transaction', async () => {
    const { error, response } = await fail('Transaction:019542f5-b3e7-1d02-0000-0000000000fe', 'BANK_REJECTED');
    expect(response.status).toBe(404);
    expect(error).toMatchObject({ code: 'TRANSACTION_NOT_FOUND' });
  });
});

describe('simulateTransactionReturn', () => {
  it('200: the receiving bank returns a completed payment', async () => {
    const transactionId = isMock ? example.transactionId : (await payout('000', 50_000, 20_000)).tx.id;
    const { data, response } = await returned(transactionId);
    expect(response.status).toBe(200);
    expect(data?.status).toBe('FAILED');
  });

  itServer('200: FAILED with PAYMENT_RETURNED, settledAt kept, the amount credited back exactly once', async () => {
    const { tx, internal } = await payout('000', 50_000, 12_345);
    expect(await balanceOf(internal.id)).toBe(37_655);
    const { data } = await returned(tx.id);
    expect(data).toMatchObject({ id: tx.id, status: 'FAILED', failureReason: 'PAYMENT_RETURNED', settledAt: tx.settledAt });
    expect(await balanceOf(internal.id)).toBe(50_000);
    expectNotAllowed(await returned(tx.id), 'FAILED', []);
    expect(await balanceOf(internal.id)).toBe(50_000);
  });

  itServer('409: a payment not yet completed, an incoming payment, a conversion between internal accounts', async () => {
    const pending = await payout('005', 5_000, 5_000);
    expectNotAllowed(await returned(pending.tx.id), 'PENDING', ['PROCESSING', 'COMPLETED', 'FAILED', 'EXPIRED', 'CANCELLED']);
    const account = await customerInternalAccount((await createIndividualCustomer()).id, 'USD');
    const { data: incoming } = await receive(account.id, { amount: 100, currency: 'USD' });
    expectNotAllowed(await returned(incoming?.id ?? ''), 'COMPLETED', ['FAILED']);
    expect(await balanceOf(account.id)).toBe(100);
  });
});

describe('simulateIncomingPayment', () => {
  it('200: a bank payment arrives in an internal account', async () => {
    const accountId = isMock ? example.internalAccountId : (await customerInternalAccount((await createIndividualCustomer()).id, 'USD')).id;
    const { data, response } = await receive(accountId, { amount: 250_000, currency: 'USD', senderName: 'Acme Payroll Inc.' });
    expect(response.status).toBe(200);
    expect(data?.type).toBe('INCOMING');
  });

  itServer('200: COMPLETED is credited at once, in any currency the account holds, with the sender named', async () => {
    const customer = await createIndividualCustomer({ currencies: ['USD', 'MXN', 'BTC'] });
    for (const [code, amount] of [['USD', 1], ['MXN', 99_999_999], ['BTC', 12_345_678]] as const) {
      const account = await customerInternalAccount(customer.id, code);
      const { data } = await receive(account.id, { amount, currency: code, senderName: 'Acme Payroll Inc.' });
      expect(data).toMatchObject({ type: 'INCOMING', direction: 'CREDIT', status: 'COMPLETED', customerId: customer.id, destination: { accountId: account.id, currency: code }, receivedAmount: { amount, currency: { code } }, paymentRail: 'ACH', counterpartyInformation: { FULL_NAME: 'Acme Payroll Inc.' } });
      expect(data?.settledAt).toBeDefined();
      expect(await balanceOf(account.id)).toBe(amount);
    }
  });

  itServer('200: PENDING credits nothing until completed (then once), or failed (then never)', async () => {
    const account = await customerInternalAccount((await createIndividualCustomer()).id, 'USD');
    const { data: waiting } = await receive(account.id, { amount: 4_000, currency: 'USD', status: 'PENDING' });
    expect(waiting).toMatchObject({ status: 'PENDING', receivedAmount: { amount: 4_000 } });
    expect(await balanceOf(account.id)).toBe(0);
    expect((await complete(waiting?.id ?? '')).data?.status).toBe('COMPLETED');
    expect(await balanceOf(account.id)).toBe(4_000);
    expectNotAllowed(await complete(waiting?.id ?? ''), 'COMPLETED', ['FAILED']);
    const { data: second } = await receive(account.id, { amount: 500, currency: 'USD', status: 'PENDING' });
    expect((await fail(second?.id ?? '', 'COMPLIANCE_REJECTED')).data).toMatchObject({ status: 'FAILED', failureReason: 'COMPLIANCE_REJECTED', receivedAmount: { amount: 0 } });
    expect(await balanceOf(account.id)).toBe(4_000);
  });

  itServer('200: FAILED records the payment with its reason and credits nothing', async () => {
    const account = await customerInternalAccount((await createIndividualCustomer()).id, 'USD');
    const { data } = await receive(account.id, { amount: 700, currency: 'USD', status: 'FAILED', failureReason: 'ACCOUNT_CLOSED' });
    expect(data).toMatchObject({ status: 'FAILED', failureReason: 'ACCOUNT_CLOSED', receivedAmount: { amount: 0 } });
    const { data: byDefault } = await receive(account.id, { amount: 700, currency: 'USD', status: 'FAILED' });
    expect(byDefault?.failureReason).toBe('BANK_REJECTED');
    expect(await balanceOf(account.id)).toBe(0);
  });

  itServer('400: another currency than the account\'s, a reason without FAILED, a bad amount; nothing is recorded', async () => {
    const account = await customerInternalAccount((await createIndividualCustomer()).id, 'USD');
    const path = `/sandbox/internal-accounts/${encodeURIComponent(account.id)}/receive`;
    const mismatch = await raw('POST', path, jsonBody({ amount: 100, currency: 'EUR' }));
    expect(mismatch.status).toBe(400);
    expect(await codeOf(mismatch)).toBe('CURRENCY_MISMATCH');
    for (const body of [{ amount: 100, currency: 'USD', failureReason: 'BANK_REJECTED' }, { amount: 0, currency: 'USD' }, { amount: 1.5, currency: 'USD' }, { amount: 100 }, { amount: 100, currency: 'USD', status: 'PROCESSING' }]) {
      const res = await raw('POST', path, jsonBody(body));
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(await codeOf(res)).toBe('INVALID_INPUT');
    }
    expect(await balanceOf(account.id)).toBe(0);
  });

  itServer('404: an unknown internal account', async () => {
    const { error, response } = await receive('InternalAccount:019542f5-b3e7-1d02-0000-0000000000fd', { amount: 100, currency: 'USD' });
    expect(response.status).toBe(404);
    expect(error).toMatchObject({ code: 'INTERNAL_ACCOUNT_NOT_FOUND' });
  });
});

describe('simulateKycOutcome', () => {
  const decide = (customerId: string, status: Schemas['SandboxKycOutcomeRequest']['status']) =>
    api.POST('/sandbox/customers/{customerId}/kyc-outcome', { params: { path: { customerId } }, body: { status } });

  it('200: decides a customer\'s KYC', async () => {
    const customerId = isMock ? example.customerId : (await createIndividualCustomer()).id;
    const { data, response } = await decide(customerId, 'APPROVED');
    expect(response.status).toBe(200);
    expect(data?.id).toBeDefined();
  });

  itServer('200: an individual moves along KycStatus; the same status again is 409 naming the allowed ones', async () => {
    const customer = await createIndividualCustomer({ fullName: 'Jane Doe' });
    expect(customer.kycStatus).toBe('UNVERIFIED');
    expect((await decide(customer.id, 'PENDING')).data).toMatchObject({ id: customer.id, kycStatus: 'PENDING' });
    expect((await decide(customer.id, 'REJECTED')).data).toMatchObject({ kycStatus: 'REJECTED' });
    expectNotAllowed(await decide(customer.id, 'REJECTED'), 'REJECTED', ['PENDING', 'APPROVED']);
    expect((await decide(customer.id, 'APPROVED')).data).toMatchObject({ kycStatus: 'APPROVED' });
    expect((await api.GET('/customers/{customerId}', { params: { path: { customerId: customer.id } } })).data).toMatchObject({ kycStatus: 'APPROVED' });
  });

  itServer('200: a business without a kybStatus gets its first; a customer under manual review has its verification decided too', async () => {
    const business = await createBusinessCustomer();
    expect(business).not.toHaveProperty('kybStatus');
    expect((await decide(business.id, 'PENDING')).data).toMatchObject({ kybStatus: 'PENDING' });
    expect((await decide(business.id, 'APPROVED')).data).toMatchObject({ kybStatus: 'APPROVED' });

    const reviewed = await createIndividualCustomer({ fullName: 'Jane Doe001' });
    const { data: verification } = await api.POST('/verifications', { body: { customerId: reviewed.id } });
    expect(verification?.verificationStatus).toBe('PENDING_MANUAL_REVIEW');
    // Both ways keep working: the name ending in 001 left it pending; the simulation decides it.
    expect((await decide(reviewed.id, 'APPROVED')).data).toMatchObject({ kycStatus: 'APPROVED' });
    const { data: after } = await api.GET('/verifications/{verificationId}', { params: { path: { verificationId: verification?.id ?? '' } } });
    expect(after?.verificationStatus).toBe('APPROVED');
  });

  itServer('404 for an unknown customer, 410 for a deleted one, 400 for an unknown status', async () => {
    expect((await decide('Customer:019542f5-b3e7-1d02-0000-0000000000fc', 'APPROVED')).error).toMatchObject({ status: 404, code: 'CUSTOMER_NOT_FOUND' });
    const customer = await createIndividualCustomer();
    await api.DELETE('/customers/{customerId}', { params: { path: { customerId: customer.id } } });
    expect((await decide(customer.id, 'APPROVED')).response.status).toBe(410);
    const res = await raw('POST', `/sandbox/customers/${encodeURIComponent(customer.id)}/kyc-outcome`, jsonBody({ status: 'UNVERIFIED' }));
    expect(res.status).toBe(400);
  });
});

describe('simulateVerificationOutcome', () => {
  const decide = (verificationId: string, status: Schemas['SandboxVerificationOutcomeRequest']['status']) =>
    api.POST('/sandbox/verifications/{verificationId}/outcome', { params: { path: { verificationId } }, body: { status } });
  const underReview = async (type: 'INDIVIDUAL' | 'BUSINESS' = 'INDIVIDUAL') => {
    const customer = type === 'INDIVIDUAL' ? await createIndividualCustomer({ fullName: 'Jane Doe001' }) : await createBusinessCustomer({ businessInfo: { legalName: 'Northwind Traders Ltd', registrationNumber: 'REG-77001' } } as never);
    const { data } = await api.POST('/verifications', { body: { customerId: customer.id } });
    expect(data?.verificationStatus).toBe('PENDING_MANUAL_REVIEW');
    return { customer, verificationId: data?.id ?? '' };
  };

  it('200: the reviewer decides a verification', async () => {
    const verificationId = isMock ? '019542f5-b3e7-1d02-0000-000000000004' : (await underReview()).verificationId;
    const { data, response } = await decide(verificationId, 'APPROVED');
    expect(response.status).toBe(200);
    expect(data?.verificationStatus).toBe('APPROVED');
  });

  itServer('200: REJECTED ends it and rejects the customer; nothing more is allowed from there', async () => {
    const { customer, verificationId } = await underReview();
    expect((await decide(verificationId, 'REJECTED')).data).toMatchObject({ id: verificationId, verificationStatus: 'REJECTED', errors: [] });
    expect((await api.GET('/customers/{customerId}', { params: { path: { customerId: customer.id } } })).data).toMatchObject({ kycStatus: 'REJECTED' });
    expectNotAllowed(await decide(verificationId, 'APPROVED'), 'REJECTED', []);
  });

  itServer('200: a business\'s KYB follows; RESOLVE_ERRORS asks for a document and leaves kybStatus as it was', async () => {
    const { customer, verificationId } = await underReview('BUSINESS');
    expect((await decide(verificationId, 'RESOLVE_ERRORS')).data).toMatchObject({ verificationStatus: 'RESOLVE_ERRORS', errors: [{ type: 'INVALID_DOCUMENT', resourceId: customer.id }] });
    // Only a review waits for a decision: RESOLVE_ERRORS waits for the platform.
    expectNotAllowed(await decide(verificationId, 'APPROVED'), 'RESOLVE_ERRORS', ['READY_FOR_VERIFICATION']);
    const other = await underReview('BUSINESS');
    expect((await decide(other.verificationId, 'APPROVED')).data?.verificationStatus).toBe('APPROVED');
    expect((await api.GET('/customers/{customerId}', { params: { path: { customerId: other.customer.id } } })).data).toMatchObject({ kybStatus: 'APPROVED' });
  });

  itServer('409: a verification the sandbox already decided; 404: an unknown one', async () => {
    const customer = await createIndividualCustomer({ fullName: 'Jane Doe' });
    const { data } = await api.POST('/verifications', { body: { customerId: customer.id } });
    expectNotAllowed(await decide(data?.id ?? '', 'REJECTED'), 'APPROVED', []);
    expect((await decide('019542f5-b3e7-1d02-0000-0000000000fb', 'APPROVED')).error).toMatchObject({ status: 404, code: 'VERIFICATION_NOT_FOUND' });
  });
});

describe('simulateBeneficiaryVerification', () => {
  const answer = (externalAccountId: string, status: Schemas['SandboxBeneficiaryVerificationRequest']['status']) =>
    api.POST('/sandbox/external-accounts/{externalAccountId}/beneficiary-verification', { params: { path: { externalAccountId } }, body: { status } });

  it('200: the rail answers a pending name check', async () => {
    const accountId = isMock ? example.externalAccountId : (await customerWithExternalAccount('104')).external.id;
    const { data, response } = await answer(accountId, 'MATCHED');
    expect(response.status).toBe(200);
    expect(data?.beneficiaryVerificationStatus).toBe('MATCHED');
  });

  itServer('200: PENDING (an account ending in 104) moves to each answer; MATCHED gives the verified name; the answer is final', async () => {
    for (const status of ['MATCHED', 'PARTIAL_MATCH', 'NOT_MATCHED', 'UNSUPPORTED', 'CHECKED_BY_RECEIVING_FI'] as const) {
      const { external } = await customerWithExternalAccount('104');
      expect(external.beneficiaryVerificationStatus).toBe('PENDING');
      const { data } = await answer(external.id, status);
      expect(data).toMatchObject({ id: external.id, beneficiaryVerificationStatus: status });
      if (status === 'MATCHED') expect(data?.beneficiaryVerifiedData).toEqual({ fullName: 'Jane Doe' });
      else expect(data).not.toHaveProperty('beneficiaryVerifiedData');
      expect((await api.GET('/customers/external-accounts/{externalAccountId}', { params: { path: { externalAccountId: external.id } } })).data).toEqual(data);
      expectNotAllowed(await answer(external.id, 'MATCHED'), status, []);
    }
  });

  itServer('409: an account checked at creation, and a wallet, which has no check; 404: an unknown account', async () => {
    const { external } = await customerWithExternalAccount('000');
    expectNotAllowed(await answer(external.id, 'NOT_MATCHED'), 'MATCHED', []);
    const customer = await createIndividualCustomer({ currencies: ['BTC'] });
    const wallet = await createExternalAccount({ customerId: customer.id, currency: 'BTC', accountInfo: externalAccountInfo.spark() });
    expectNotAllowed(await answer(wallet.id, 'MATCHED'), 'NONE', []);
    expect((await answer('ExternalAccount:019542f5-b3e7-1d02-0000-0000000000fa', 'MATCHED')).error).toMatchObject({ status: 404, code: 'EXTERNAL_ACCOUNT_NOT_FOUND' });
  });
});

describe('simulateWebhookEvent', () => {
  // No endpoint set: platform-config.test.ts, the one file that changes the shared endpoint.
  it('400: an unknown type', async () => {
    const res = await raw('POST', '/sandbox/webhooks/trigger', jsonBody({ type: 'NOT_A_TYPE' }));
    expect(isMock ? [400, 422] : [400]).toContain(res.status);
  });
});

/** The webhook schema that carries each event type, from the spec's `webhooks` (each an allOf of WebhookEvent and its own part). */
const schemaOfType = new Map(
  Object.values(spec.webhooks ?? {}).flatMap((w) => {
    const ref = deref<{ post: { requestBody: { content: { 'application/json': { schema: { $ref: string } } } } } }>(w).post.requestBody.content['application/json'].schema.$ref;
    const own = deref<{ allOf: { properties?: { type?: { enum?: string[] } } }[] }>(deref({ $ref: ref })).allOf.map((part) => deref<{ properties?: { type?: { enum?: string[] } } }>(part));
    return own.flatMap((part) => part.properties?.type?.enum ?? []).map((t): [string, string] => [t, ref]);
  }),
);

// A server of the file's own: the tests set its webhook endpoint, which the shared target's other files must not get.
describeServer('the webhooks of simulations, on a server of its own', () => {
  const own = ownServer();
  const hooks = ownWebhookReceiver(own);
  type Event = { id: string; type: string; data: Record<string, unknown> };
  /** The events received, once `done` holds of them (or after 20 s). */
  const eventsWhen = async (done: (events: Event[]) => boolean) => {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const events = hooks.receiver.received.map((h) => new Webhook(hooks.secret).verify(h.body, h.headers) as Event);
      if (done(events) || Date.now() > deadline) return events;
      await new Promise((r) => setTimeout(r, 100));
    }
  };

  it('a simulated outcome sends the webhook of the change, as the change itself would', async () => {
    const { tx } = await payout('005', 10_000, 2_500, own.via);
    const { data: completed } = await complete(tx.id, own.via);
    const { tx: second } = await payout('000', 10_000, 1_000, own.via);
    await returned(second.id, own.via);
    const outgoing = (events: Event[]) => events.filter((e) => e.type.startsWith('OUTGOING_PAYMENT_') && (e.data.id === tx.id || e.data.id === second.id));
    const events = outgoing(await eventsWhen((all) => outgoing(all).length >= 4));
    const about = (id: string) => events.filter((e) => e.data.id === id).map((e) => [e.type, e.data.status, e.data.failureReason]);
    expect(about(tx.id)).toEqual([['OUTGOING_PAYMENT_PENDING', 'PENDING', undefined], ['OUTGOING_PAYMENT_COMPLETED', 'COMPLETED', undefined]]);
    expect(events.find((e) => e.data.id === tx.id && e.type === 'OUTGOING_PAYMENT_COMPLETED')?.data).toEqual(completed);
    expect(about(second.id)).toEqual([['OUTGOING_PAYMENT_COMPLETED', 'COMPLETED', undefined], ['OUTGOING_PAYMENT_FAILED', 'FAILED', 'PAYMENT_RETURNED']]);
    for (const e of events) expect(await validateAgainst(schemaOfType.get(e.type) ?? '', e)).toEqual([]);
  });

  it('200: every documented event type arrives signed, with a data of its type valid against its webhook, and the answer gives the event as received and the endpoint\'s reply', async () => {
    const types = deref<{ enum: Schemas['WebhookEventType'][] }>(spec.components.schemas?.WebhookEventType).enum;
    expect(types.length).toBeGreaterThanOrEqual(24);
    const mapping = deref<{ discriminator: { mapping: Record<string, string> } }>(spec.components.schemas?.AnyWebhookEvent).discriminator.mapping;
    const before = hooks.receiver.received.length;
    for (const type of types) {
      const { data, response } = await own.via.POST('/sandbox/webhooks/trigger', { body: { type } });
      expect(response.status, type).toBe(200);
      expect(data).toMatchObject({ type, url: hooks.receiver.url, responseStatus: 200, responseBody: '{"received":true}' });
      expect(await validateAgainst('#/components/schemas/SandboxWebhookTriggerResult', data), type).toEqual([]);
      const hook = hooks.receiver.received.at(-1);
      const event = new Webhook(hooks.secret).verify(hook?.body ?? '', hook?.headers ?? {}) as { id: string; type: string; data: Record<string, unknown> };
      expect(event).toMatchObject({ id: data?.eventId, type });
      expect(await validateAgainst(schemaOfType.get(type) ?? '', event), type).toEqual([]);
      // The answer's event is the body the endpoint got, byte for byte, and its discriminator names the webhook that carries the type.
      expect(data?.event, type).toEqual(event);
      expect(JSON.stringify(data?.event), type).toBe(hook?.body);
      expect(mapping[type], type).toBe(schemaOfType.get(type));
      // The data is in the status its type names.
      const status = /^(?:INCOMING|OUTGOING)_PAYMENT_(\w+)$/.exec(type)?.[1] ?? /^AGENT_ACTION_(\w+)$/.exec(type)?.[1];
      if (status !== undefined) expect(event.data.status, type).toBe(status);
      const kyc = /^CUSTOMER_(KYC|KYB)_(\w+)$/.exec(type);
      if (kyc !== null) expect(event.data[kyc[1] === 'KYC' ? 'kycStatus' : 'kybStatus'], type).toBe(kyc[2]);
    }
    expect(hooks.receiver.received.length - before).toBe(types.length);
  });

  it('200: an endpoint that refuses is reported, not retried', async () => {
    hooks.receiver.answerWith(500, '{"error":"down"}');
    const before = hooks.receiver.received.length;
    const { data } = await own.via.POST('/sandbox/webhooks/trigger', { body: { type: 'CUSTOMER_KYB_REJECTED' } });
    expect(data).toMatchObject({ responseStatus: 500, responseBody: '{"error":"down"}' });
    await new Promise((r) => setTimeout(r, 1_500));
    expect(hooks.receiver.received.length - before).toBe(1);
    hooks.receiver.answerWith(200, '{"received":true}');
  });
});
