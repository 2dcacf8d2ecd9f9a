// Sandbox simulations of the outcomes that come from outside the API: a customer's KYC or KYB
// decision, a compliance reviewer's decision on a verification, and a rail's answer to a pending
// beneficiary name check. Each moves its object along its `x-state-machine` (409 otherwise) and
// queues the webhook the change sends, in the request's database transaction.
import type { components } from '../../generated/openapi.js';
import type { PlatformContext } from '../context/context.ts';
import { toCustomer, WITHOUT_TAX_ID } from '../customers/customers.mapper.ts';
import type { CustomerRow } from '../customers/customers.repository.ts';
import { requireLiveCustomer, setVerificationStatus } from '../customers/customers.service.ts';
import { toExternalAccount } from '../external-accounts/external-accounts.mapper.ts';
import { moveBeneficiaryVerification } from '../external-accounts/external-accounts.repository.ts';
import { requireExternalAccount } from '../external-accounts/external-accounts.service.ts';
import { conflict, notFound } from '../shared/errors.ts';
import { toVerification } from '../verifications/verifications.mapper.ts';
import { findLatestVerification, findVerification, moveVerification, type VerificationRow } from '../verifications/verifications.repository.ts';
import { emitEvent } from '../webhooks/webhooks.service.ts';
import { requireTransition, transitionNotAllowed } from './transition-refusal.ts';

type Schemas = components['schemas'];
type Outcome = Schemas['SandboxKycOutcomeRequest']['status'];

/** The account for its webhook: the outbox stores bodies as sent, so a business beneficiary's tax id (an identity number) stays out. */
function withoutTaxId(account: Schemas['ExternalAccount']): Schemas['ExternalAccount'] {
  const info = account.accountInfo;
  if (info.accountType === 'SPARK_WALLET' || info.beneficiary?.beneficiaryType !== 'BUSINESS' || info.beneficiary.taxId === undefined) return account;
  const { taxId: _left, ...beneficiary } = info.beneficiary;
  return { ...account, accountInfo: { ...info, beneficiary } } as Schemas['ExternalAccount'];
}

const changedMeanwhile = () => conflict('CONFLICT', 'The object changed meanwhile; retry.');

/** The customer's KYC (individual) or KYB (business) status moves to `to`, with its customer-status webhook. */
async function moveCustomerStatus(ctx: PlatformContext, customer: CustomerRow, to: Outcome): Promise<CustomerRow> {
  const business = customer.customer_type === 'BUSINESS';
  const from = business ? customer.kyb_status : (customer.kyc_status ?? 'UNVERIFIED');
  // A business without a KYB status yet may get any first outcome (KybStatus's initial states).
  if (from !== null) requireTransition(business ? 'KybStatus' : 'KycStatus', from, to, business ? "The customer's kybStatus" : "The customer's kycStatus");
  const updated = await setVerificationStatus(ctx, customer, to);
  if (updated === undefined) throw changedMeanwhile();
  await emitEvent(ctx, `CUSTOMER_${business ? 'KYB' : 'KYC'}_${to}`, toCustomer(updated, WITHOUT_TAX_ID));
  return updated;
}

/** The verification moves to `to` (409 where VerificationStatus does not allow it), with its webhook. */
async function moveVerificationTo(ctx: PlatformContext, row: VerificationRow, to: Schemas['SandboxVerificationOutcomeRequest']['status']): Promise<VerificationRow> {
  // The sandbox decides at once; only a manual review waits for a decision.
  requireTransition('VerificationStatus', row.verification_status, to, 'The verification', row.verification_status === 'PENDING_MANUAL_REVIEW');
  const errors: Schemas['VerificationError'][] =
    to === 'RESOLVE_ERRORS' ? [{ resourceId: row.customer_id, type: 'INVALID_DOCUMENT', reason: 'The reviewer could not accept the identity document; upload a new one.' }] : [];
  const moved = await moveVerification(ctx.db, row.id, row.verification_status, { verification_status: to, errors }, ctx.clock.now());
  if (moved === undefined) throw changedMeanwhile();
  await emitEvent(ctx, 'VERIFICATION_STATUS_UPDATED', toVerification(moved));
  return moved;
}

export async function simulateKycOutcome(ctx: PlatformContext, customerId: string, to: Outcome): Promise<Schemas['Customer']> {
  const customer = await requireLiveCustomer(ctx, customerId);
  const latest = await findLatestVerification(ctx.db, customer.id);
  // A decision on a customer under manual review decides its review too.
  if (latest?.verification_status === 'PENDING_MANUAL_REVIEW' && to !== 'PENDING') await moveVerificationTo(ctx, latest, to);
  return toCustomer(await moveCustomerStatus(ctx, customer, to), ctx.keys);
}

export async function simulateVerificationOutcome(ctx: PlatformContext, verificationId: string, to: Schemas['SandboxVerificationOutcomeRequest']['status']): Promise<Schemas['Verification']> {
  const found = await findVerification(ctx.db, ctx.platformId, verificationId);
  if (found === undefined) throw notFound('VERIFICATION_NOT_FOUND', 'No such verification.');
  // The customer's row lock serializes this with its other verifications, as POST /verifications does.
  const customer = await requireLiveCustomer(ctx, found.customer_id);
  const row = (await findVerification(ctx.db, ctx.platformId, verificationId)) ?? found;
  const moved = await moveVerificationTo(ctx, row, to);
  if (to !== 'RESOLVE_ERRORS') await moveCustomerStatus(ctx, customer, to);
  return toVerification(moved);
}

export async function simulateBeneficiaryVerification(ctx: PlatformContext, externalAccountId: string, to: Schemas['SandboxBeneficiaryVerificationRequest']['status']): Promise<Schemas['ExternalAccount']> {
  const account = await requireExternalAccount(ctx, externalAccountId);
  const from = account.beneficiary_verification_status;
  if (from === null) throw transitionNotAllowed('BeneficiaryVerificationStatus', 'NONE', 'The account has no beneficiary name check (a wallet, or an account without a beneficiary).');
  requireTransition('BeneficiaryVerificationStatus', from, to, 'The name check');
  const name = account.account_info.accountType === 'SPARK_WALLET' ? undefined : account.account_info.beneficiary?.fullName;
  const moved = await moveBeneficiaryVerification(ctx.db, ctx.platformId, account.id, from, { beneficiary_verification_status: to, beneficiary_verified_name: to === 'MATCHED' ? (name ?? null) : null }, ctx.clock.now());
  if (moved === undefined) throw changedMeanwhile();
  const answered = toExternalAccount(moved, ctx.keys);
  await emitEvent(ctx, 'EXTERNAL_ACCOUNT_STATUS_UPDATED', withoutTaxId(answered));
  return answered;
}
