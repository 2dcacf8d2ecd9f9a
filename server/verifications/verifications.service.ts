// Verifications (KYC of individuals, KYB of businesses): POST /verifications creates, re-evaluates
// or returns the customer's current verification; list and get read them. The sandbox runs the
// checks synchronously: READY_FOR_VERIFICATION → IN_PROGRESS → the outcome, in one request.
import type { components } from '../../generated/openapi.js';
import type { PlatformContext } from '../context/context.ts';
import { toCustomer, WITHOUT_TAX_ID } from '../customers/customers.mapper.ts';
import type { CustomerRow } from '../customers/customers.repository.ts';
import { requireLiveCustomer, setVerificationStatus } from '../customers/customers.service.ts';
import type { BusinessProfile, IndividualProfile } from '../db/schema.ts';
import { markDocumentsSubmitted } from '../documents/documents.service.ts';
import { conflict, notFound } from '../shared/errors.ts';
import { newOpaqueId } from '../shared/ids.ts';
import { listPage, type Page } from '../shared/page.ts';
import { assertInitial, assertPath } from '../shared/state-machine.ts';
import { kybOutcome } from '../simulation/kyb.ts';
import { kycOutcome, type KycOutcome } from '../simulation/kyc.ts';
import { emitEvent } from '../webhooks/webhooks.service.ts';
import { toVerification } from './verifications.mapper.ts';
import { findLatestVerification, findVerification, insertVerification, listVerifications as listRows, moveVerification, type VerificationFilters } from './verifications.repository.ts';

type Schemas = components['schemas'];
type Verification = Schemas['Verification'];
type VerificationStatus = Schemas['VerificationStatus'];
type VerificationError = Schemas['VerificationError'];

/** Verifications still under way: POST /verifications returns them unchanged. */
const UNDER_WAY: readonly VerificationStatus[] = ['READY_FOR_VERIFICATION', 'IN_PROGRESS', 'PENDING_MANUAL_REVIEW'];

const VERIFICATION_STATUS: Record<KycOutcome, VerificationStatus> = {
  PENDING: 'PENDING_MANUAL_REVIEW',
  REJECTED: 'REJECTED',
  APPROVED: 'APPROVED',
};

/** The datum each kind of customer is checked on: the registration number of a business, the name of a person. */
function checkedDatum(customer: CustomerRow): { field: string; value: string | undefined; reason: string } {
  return customer.customer_type === 'BUSINESS'
    ? { field: 'businessInfo.registrationNumber', value: (customer.profile as BusinessProfile).businessInfo.registrationNumber, reason: 'The business registration number is required for verification.' }
    : { field: 'fullName', value: (customer.profile as IndividualProfile).fullName, reason: 'The full name is required for verification.' };
}

/** Evaluates a customer: missing data gives RESOLVE_ERRORS, otherwise the sandbox decides at once. */
function evaluate(customer: CustomerRow): { status: VerificationStatus; errors: VerificationError[]; outcome?: KycOutcome } {
  const datum = checkedDatum(customer);
  if (datum.value === undefined || datum.value === '') {
    return { status: 'RESOLVE_ERRORS', errors: [{ resourceId: customer.id, type: 'MISSING_FIELD', field: datum.field, reason: datum.reason }] };
  }
  // The sandbox decides at once: KYB on the registration number, KYC on the name.
  const outcome = customer.customer_type === 'BUSINESS' ? kybOutcome(datum.value) : kycOutcome(datum.value);
  return { status: VERIFICATION_STATUS[outcome], errors: [], outcome };
}

export async function createVerification(ctx: PlatformContext, customerId: string): Promise<Verification> {
  // The customer's row lock serializes verifications of one customer with its other changes.
  const customer = await requireLiveCustomer(ctx, customerId);
  // Every document uploaded until now counts as submitted: deleteDocument refuses it from here on.
  await markDocumentsSubmitted(ctx, customer.id);
  const latest = await findLatestVerification(ctx.db, customer.id);
  if (latest !== undefined && UNDER_WAY.includes(latest.verification_status)) return toVerification(latest);

  const at = ctx.clock.now();
  const { status, errors, outcome } = evaluate(customer);
  // The checks run at once: from ready, through in progress, to their outcome.
  const checked = (from: VerificationStatus[]) => (status === 'RESOLVE_ERRORS' ? from : [...from, 'READY_FOR_VERIFICATION', 'IN_PROGRESS', status]);
  let row;
  if (latest?.verification_status === 'RESOLVE_ERRORS') {
    // Still errors: the same verification with the errors found now; fixed: it moves on.
    assertPath('VerificationStatus', checked(['RESOLVE_ERRORS']));
    row = await moveVerification(ctx.db, latest.id, 'RESOLVE_ERRORS', { verification_status: status, errors }, at);
    if (row === undefined) throw conflict('CONFLICT', 'The verification changed meanwhile; retry.');
  } else {
    const path = checked([]);
    assertInitial('VerificationStatus', path[0] ?? status);
    assertPath('VerificationStatus', path);
    row = await insertVerification(ctx.db, { id: newOpaqueId(), platform_id: ctx.platformId, customer_id: customer.id, verification_status: status, errors, created_at: at, updated_at: at });
  }
  const verification = toVerification(row);
  // The webhooks are queued in this transaction: they go out only if the change commits.
  await emitEvent(ctx, 'VERIFICATION_STATUS_UPDATED', verification);
  if (outcome !== undefined) {
    const updated = await setVerificationStatus(ctx, customer, outcome);
    // Without the business's tax id: the outbox stores the body as it is sent (customer-status webhook).
    if (updated !== undefined) await emitEvent(ctx, `CUSTOMER_${customer.customer_type === 'BUSINESS' ? 'KYB' : 'KYC'}_${outcome}`, toCustomer(updated, WITHOUT_TAX_ID));
  }
  return verification;
}

export async function listVerifications(ctx: PlatformContext, query: VerificationFilters & { limit?: number; cursor?: string }): Promise<Page<Verification>> {
  return listPage(ctx.keys, query, (filters, page) => listRows(ctx.db, ctx.platformId, filters, page), toVerification);
}

export async function getVerification(ctx: PlatformContext, id: string): Promise<Verification> {
  const row = await findVerification(ctx.db, ctx.platformId, id);
  if (row === undefined) throw notFound('VERIFICATION_NOT_FOUND', 'No such verification.');
  return toVerification(row);
}
