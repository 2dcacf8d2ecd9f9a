// Sandbox simulations (sandbox guide, "Simulations"): a payment completed, failed or returned on
// demand, a bank payment received, a KYC or KYB decided, a verification under review decided, a
// pending name check answered, a sample webhook of any type sent. Each moves its object as the
// outcome would have, with its money to the minor unit, and refuses what the object's state machine
// does not allow with 409 TRANSITION_NOT_ALLOWED naming the statuses allowed from there. Also the
// Idempotency-Key pairs of the four that move money, for idempotency.ts.
import type { components } from '../../../generated/openapi.js';
import type { Check } from '../check.ts';
import { CheckFailure } from '../check.ts';
import { webhookViolations } from '../contract.ts';
import { accountOf, accountPair, balanceOf, business, externalAccount, accountInfo, individual, verification, type Transaction } from '../fixtures.ts';
import type { Reply } from '../http.ts';
import { verify } from '../webhook-hub.ts';
import type { World } from '../world.ts';
import { check, enc } from './define.ts';
import { created, transferOut } from './transfers.ts';

type Schemas = components['schemas'];

const GUIDE = 'sandbox guide: simulations';
const NOT_ALLOWED = `a simulation its object's state machine (x-state-machine) does not allow is 409 TRANSITION_NOT_ALLOWED, with details.status and details.allowedTransitions (${GUIDE})`;

const simulate = (t: World, path: string, body?: unknown, keyed = true): Promise<Reply> => t.call('POST', path, { ...(body === undefined ? {} : { body }), ...(keyed ? { key: t.key() } : {}) });
const onTransaction = (t: World, id: string, action: 'complete' | 'fail' | 'return', body?: unknown) => simulate(t, `/sandbox/transactions/${enc(id)}/${action}`, body);

/** The 409 of a move the state machine does not allow, naming the status and what it allows. */
function expectNotAllowed(t: World, reply: Reply, status: string, allowedTransitions: string[], what: string): void {
  t.expectError(reply, 409, 'TRANSITION_NOT_ALLOWED', `${what}: ${NOT_ALLOWED}`);
  t.is.contains((reply.body as { details?: unknown }).details, { status, allowedTransitions }, `${what}: ${NOT_ALLOWED}`, reply);
}

/** A transfer-out of `amount` from a funded account to a bank account ending in `suffix`. */
async function payout(t: World, suffix: string, funding: number, amount: number) {
  const { internal, external } = await accountPair(t, suffix, funding);
  const tx = created(t, await transferOut(t, internal.id, external.id, amount));
  return { tx, internal, external };
}

/** A verification under manual review (a name ending in 001, sandbox guide). */
async function underReview(t: World) {
  const customer = await individual(t, { fullName: 'Jane Doe001' });
  const v = await verification(t, customer.id);
  t.is.equal(v.verificationStatus, 'PENDING_MANUAL_REVIEW', 'a customer whose name ends in 001 waits for a manual review (sandbox guide)');
  return { customerId: customer.id, verificationId: v.id };
}

export function simulationChecks(): Check[] {
  const needs = ['state', 'sandbox'] as const;
  return [
    check('simulations.complete', { operations: ['simulateTransactionCompletion', 'getTransaction'], status: 200, rule: `a PENDING transfer-out (an account ending in 005) completes at once: COMPLETED with settledAt, its held amount stays debited, and the failure the sandbox had scheduled no longer applies (${GUIDE})`, needs: [...needs], tags: ['sandbox-outcomes'] }, async (t) => {
      const { tx, internal } = await payout(t, '005', 50_000, 20_000);
      t.is.equal(tx.status, 'PENDING', 'a transfer-out to an account ending in 005 is PENDING at first (sandbox guide)');
      const done = t.expect<Transaction>(await onTransaction(t, tx.id, 'complete'), 200, 'simulateTransactionCompletion answers 200 with the transaction');
      t.is.contains(done, { id: tx.id, status: 'COMPLETED', createdAt: tx.createdAt }, 'the payment is COMPLETED');
      t.is.ok(done.settledAt !== undefined, 'a COMPLETED payment has settledAt (TransactionStatus)', 'settledAt', () => 'none');
      t.is.equal(await balanceOf(t, internal.id), 30_000, 'the completed payment stays debited, exactly once');
      expectNotAllowed(t, await onTransaction(t, tx.id, 'complete'), 'COMPLETED', ['FAILED'], 'completing a COMPLETED payment');
    }),

    check('simulations.fail', { operations: ['simulateTransactionFailure'], status: 200, rule: `a payment under way fails at once with the failureReason given; its held amount comes back exactly once, except with REFUND_FAILED (${GUIDE})`, needs: [...needs], tags: ['sandbox-outcomes'] }, async (t) => {
      for (const [failureReason, left] of [['COUNTERPARTY_DELIVERY_FAILED', 10_000], ['REFUND_FAILED', 6_000]] as const) {
        // 005: PENDING for about 30 seconds, so no scheduled outcome races the simulation.
        const { tx, internal } = await payout(t, '005', 10_000, 4_000);
        const failed = t.expect<Transaction>(await onTransaction(t, tx.id, 'fail', { failureReason }), 200, 'simulateTransactionFailure answers 200 with the transaction');
        t.is.contains(failed, { id: tx.id, status: 'FAILED', failureReason }, `the payment is FAILED with ${failureReason}`);
        t.is.equal(await balanceOf(t, internal.id), left, `${failureReason}: ${left === 10_000 ? 'the held amount comes back' : 'the amount stays debited'} (TransactionFailureReason)`);
        expectNotAllowed(t, await onTransaction(t, tx.id, 'fail', { failureReason: 'BANK_REJECTED' }), 'FAILED', [], 'failing a FAILED payment');
      }
      const { tx } = await payout(t, '005', 1_000, 1_000);
      t.expectError(await onTransaction(t, tx.id, 'fail', { failureReason: 'PLATFORM_REJECTED' }), 400, 'INVALID_INPUT', 'PLATFORM_REJECTED is the reason of REJECTED, not of a failure: 400 (simulateTransactionFailure)');
    }),

    check('simulations.return', { operations: ['simulateTransactionReturn'], status: 200, rule: `a COMPLETED transfer-out is returned: FAILED with PAYMENT_RETURNED, settledAt kept, the amount credited back exactly once; a payment not completed cannot be (${GUIDE})`, needs: [...needs], tags: ['sandbox-outcomes'] }, async (t) => {
      const { tx, internal } = await payout(t, '000', 50_000, 12_345);
      t.is.equal(tx.status, 'COMPLETED', 'a transfer-out to any other ending is COMPLETED (sandbox guide)');
      const back = t.expect<Transaction>(await onTransaction(t, tx.id, 'return'), 200, 'simulateTransactionReturn answers 200 with the transaction');
      t.is.contains(back, { status: 'FAILED', failureReason: 'PAYMENT_RETURNED', settledAt: tx.settledAt }, 'a returned payment is FAILED with PAYMENT_RETURNED (TransactionStatus)');
      t.is.equal(await balanceOf(t, internal.id), 50_000, 'a returned payment is credited back');
      expectNotAllowed(t, await onTransaction(t, tx.id, 'return'), 'FAILED', [], 'returning a FAILED payment');
      t.is.equal(await balanceOf(t, internal.id), 50_000, 'a returned payment is credited back once');
      const pending = await payout(t, '005', 1_000, 1_000);
      expectNotAllowed(t, await onTransaction(t, pending.tx.id, 'return'), 'PENDING', ['PROCESSING', 'COMPLETED', 'FAILED', 'EXPIRED', 'CANCELLED'], 'returning a PENDING payment');
    }),

    check('simulations.receive', { operations: ['simulateIncomingPayment', 'simulateTransactionCompletion', 'simulateTransactionFailure'], status: 200, rule: `a bank payment received is credited when COMPLETED, not while PENDING (until completed, then once), never when FAILED; in the account's currency only (${GUIDE})`, needs: [...needs], tags: ['sandbox-outcomes'] }, async (t) => {
      const customer = await individual(t, { currencies: ['USD'] });
      const account = (await accountOf(t, customer.id)).id;
      const path = `/sandbox/internal-accounts/${enc(account)}/receive`;
      const now = t.expect<Schemas['IncomingTransaction']>(await simulate(t, path, { amount: 250_000, currency: 'USD', senderName: 'Acme Payroll Inc.' }), 200, 'simulateIncomingPayment answers 200 with the transaction');
      t.is.contains(now, { type: 'INCOMING', status: 'COMPLETED', customerId: customer.id, destination: { accountId: account }, receivedAmount: { amount: 250_000 }, counterpartyInformation: { FULL_NAME: 'Acme Payroll Inc.' } }, 'the incoming transaction is the payment as sent');
      t.is.equal(await balanceOf(t, account), 250_000, 'a COMPLETED payment received is credited exactly');
      const waiting = t.expect<Transaction>(await simulate(t, path, { amount: 1_000, currency: 'USD', status: 'PENDING' }), 200, 'simulateIncomingPayment answers 200');
      t.is.equal(await balanceOf(t, account), 250_000, 'a PENDING payment received credits nothing');
      t.expect(await onTransaction(t, waiting.id, 'complete'), 200, 'simulateTransactionCompletion completes a PENDING incoming payment');
      t.is.equal(await balanceOf(t, account), 251_000, 'completed, it is credited');
      const refused = t.expect<Transaction>(await simulate(t, path, { amount: 1_000, currency: 'USD', status: 'FAILED', failureReason: 'COMPLIANCE_REJECTED' }), 200, 'simulateIncomingPayment answers 200');
      t.is.contains(refused, { status: 'FAILED', failureReason: 'COMPLIANCE_REJECTED' }, 'a FAILED payment received carries its reason');
      t.is.equal(await balanceOf(t, account), 251_000, 'a FAILED payment received credits nothing');
      t.expectError(await simulate(t, path, { amount: 1_000, currency: 'EUR' }), 400, 'CURRENCY_MISMATCH', 'a payment in another currency than the account\'s is 400 CURRENCY_MISMATCH (simulateIncomingPayment)');
    }),

    check('simulations.kyc', { operations: ['simulateKycOutcome', 'getCustomer'], status: 200, rule: `a customer's kycStatus (individual) or kybStatus (business) moves along its state machine on demand; a move it does not allow is 409 (${GUIDE})`, needs: [...needs], tags: ['sandbox-outcomes'] }, async (t) => {
      const person = await individual(t);
      const path = (id: string) => `/sandbox/customers/${enc(id)}/kyc-outcome`;
      t.is.contains(t.expect(await simulate(t, path(person.id), { status: 'REJECTED' }, false), 200, 'simulateKycOutcome answers 200 with the customer'), { id: person.id, kycStatus: 'REJECTED' }, 'the individual is REJECTED');
      expectNotAllowed(t, await simulate(t, path(person.id), { status: 'REJECTED' }, false), 'REJECTED', ['PENDING', 'APPROVED'], 'a status to itself');
      t.is.contains(t.expect(await t.call('GET', `/customers/${enc(person.id)}`), 200, 'getCustomer answers 200'), { kycStatus: 'REJECTED' }, 'the customer reads back REJECTED');
      const company = await business(t);
      t.is.contains(t.expect(await simulate(t, path(company.id), { status: 'APPROVED' }, false), 200, 'simulateKycOutcome answers 200'), { kybStatus: 'APPROVED' }, 'a business without a kybStatus gets its first');
    }),

    check('simulations.verification', { operations: ['simulateVerificationOutcome', 'getVerification'], status: 200, rule: `a verification under manual review is decided on demand, and the customer's kycStatus follows; a decided one cannot be decided again (${GUIDE})`, needs: [...needs], tags: ['sandbox-outcomes'] }, async (t) => {
      const { customerId, verificationId } = await underReview(t);
      const path = `/sandbox/verifications/${enc(verificationId)}/outcome`;
      t.is.contains(t.expect(await simulate(t, path, { status: 'APPROVED' }, false), 200, 'simulateVerificationOutcome answers 200 with the verification'), { id: verificationId, verificationStatus: 'APPROVED' }, 'the verification is APPROVED');
      t.is.contains(t.expect(await t.call('GET', `/customers/${enc(customerId)}`), 200, 'getCustomer answers 200'), { kycStatus: 'APPROVED' }, 'the customer\'s kycStatus follows');
      t.is.contains(t.expect(await t.call('GET', `/verifications/${enc(verificationId)}`), 200, 'getVerification answers 200'), { verificationStatus: 'APPROVED' }, 'the verification reads back APPROVED');
      expectNotAllowed(t, await simulate(t, path, { status: 'REJECTED' }, false), 'APPROVED', [], 'deciding a decided verification');
    }),

    check('simulations.name-check', { operations: ['simulateBeneficiaryVerification', 'getCustomerExternalAccount'], status: 200, rule: `a PENDING beneficiary name check (an account number ending in 104) is answered on demand; MATCHED gives the verified name; the answer is final (${GUIDE})`, needs: [...needs], tags: ['sandbox-outcomes'] }, async (t) => {
      const customer = await individual(t);
      const external = await externalAccount(t, customer.id, 'USD', accountInfo.usd('104'));
      t.is.equal(external.beneficiaryVerificationStatus, 'PENDING', 'an account number ending in 104 leaves the name check PENDING (sandbox guide)');
      const path = `/sandbox/external-accounts/${enc(external.id)}/beneficiary-verification`;
      const answered = t.expect<Schemas['ExternalAccount']>(await simulate(t, path, { status: 'MATCHED' }, false), 200, 'simulateBeneficiaryVerification answers 200 with the account');
      t.is.contains(answered, { id: external.id, beneficiaryVerificationStatus: 'MATCHED', beneficiaryVerifiedData: { fullName: 'Jane Doe' } }, 'MATCHED, with the verified name');
      t.is.equal(t.expect(await t.call('GET', `/customers/external-accounts/${enc(external.id)}`), 200, 'getCustomerExternalAccount answers 200'), answered, 'the account reads back as answered');
      expectNotAllowed(t, await simulate(t, path, { status: 'NOT_MATCHED' }, false), 'MATCHED', [], 'answering an answered name check');
    }),

    check('simulations.webhook', { operations: ['simulateWebhookEvent'], status: 200, rule: `POST /sandbox/webhooks/trigger sends an event of any documented type, signed, with a data of that type valid against its webhook, and answers with that event as received and what the endpoint answered (${GUIDE})`, needs: [...needs, 'webhooks'], tags: ['webhooks'] }, async (t) => {
      const hub = t.webhooks;
      if (hub === undefined) throw new CheckFailure('the platform can be pointed at a webhook endpoint (updatePlatformConfig)', "the kit's receiver set up", t.webhookProblem ?? 'no webhook set-up');
      for (const type of ['OUTGOING_PAYMENT_FAILED', 'CUSTOMER_KYB_PENDING', 'EXTERNAL_ACCOUNT_STATUS_UPDATED'] as const) {
        const result = t.expect<Schemas['SandboxWebhookTriggerResult']>(await simulate(t, '/sandbox/webhooks/trigger', { type }, false), 200, 'simulateWebhookEvent answers 200 with the result');
        t.is.contains(result, { type, url: hub.url, responseStatus: 200 }, 'the result reports the event and the endpoint\'s 200');
        const [delivery] = await hub.waitFor((e) => e.id === result.eventId, 1, t.outcomeWaitMs);
        if (delivery === undefined) throw new CheckFailure(`the ${type} event arrives at the endpoint`, 'one delivery', 'none');
        const good = hub.secrets.map((secret) => verify(secret, delivery)).find((v) => v.event !== undefined);
        if (good?.event === undefined) throw new CheckFailure('the event is signed with the endpoint\'s secret (webhooks guide)', 'a signature that verifies', 'none verifies');
        const [violation] = webhookViolations(good.event);
        if (violation !== undefined) throw new CheckFailure(violation.rule, `a ${type} body the spec allows`, violation.problem);
        t.is.equal(good.event.type, type, 'the event is of the type asked for');
        t.is.equal(result.event, good.event, "the result's event is the body the endpoint received");
      }
    }),
  ];
}

/** Two different valid requests of each simulation that moves money, and how many of its effects there are (for idempotency.ts). */
type Pair = [{ path: string; body?: () => unknown }, { path: string; body?: () => unknown }, (() => Promise<number>) | undefined];

const completedCount = (t: World, accountId: string, status: string) => async () =>
  t.expect<{ totalCount: number }>(await t.call('GET', '/transactions', { query: { accountId, status } }), 200, 'listTransactions answers 200').totalCount;

/** Two PENDING transfer-outs (an account ending in 005) of one account: the simulations' subjects. */
async function twoPending(t: World) {
  const { internal, external } = await accountPair(t, '005', 10_000);
  const first = created(t, await transferOut(t, internal.id, external.id, 100));
  const second = created(t, await transferOut(t, internal.id, external.id, 200));
  return { accountId: internal.id, first: first.id, second: second.id };
}

export const simulationIdempotencyPairs: Record<string, (t: World) => Promise<Pair>> = {
  simulateTransactionCompletion: async (t) => {
    const { accountId, first, second } = await twoPending(t);
    return [{ path: `/sandbox/transactions/${enc(first)}/complete` }, { path: `/sandbox/transactions/${enc(second)}/complete` }, completedCount(t, accountId, 'COMPLETED')];
  },
  simulateTransactionFailure: async (t) => {
    const { accountId, first } = await twoPending(t);
    const path = `/sandbox/transactions/${enc(first)}/fail`;
    return [{ path, body: () => ({ failureReason: 'BANK_REJECTED' }) }, { path, body: () => ({ failureReason: 'ACCOUNT_CLOSED' }) }, completedCount(t, accountId, 'FAILED')];
  },
  simulateTransactionReturn: async (t) => {
    const { internal, external } = await accountPair(t, '000', 10_000);
    const first = created(t, await transferOut(t, internal.id, external.id, 100));
    const second = created(t, await transferOut(t, internal.id, external.id, 200));
    return [{ path: `/sandbox/transactions/${enc(first.id)}/return` }, { path: `/sandbox/transactions/${enc(second.id)}/return` }, completedCount(t, internal.id, 'FAILED')];
  },
  simulateIncomingPayment: async (t) => {
    const account = (await accountOf(t, (await individual(t)).id)).id;
    const path = `/sandbox/internal-accounts/${enc(account)}/receive`;
    return [{ path, body: () => ({ amount: 100, currency: 'USD' }) }, { path, body: () => ({ amount: 200, currency: 'USD' }) }, completedCount(t, account, 'COMPLETED')];
  },
};
