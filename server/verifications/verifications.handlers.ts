// Verifications (KYC of individuals, KYB of businesses): POST /verifications creates, re-evaluates
// or returns the customer's current verification; list and get read them.
import type { components } from '../../generated/openapi.js';
import { requireLiveCustomer } from '../customers/customer-access.ts';
import { toCustomer } from '../customers/customers.handlers.ts';
import { setVerificationStatus, type CustomerRow } from '../customers/customers.repository.ts';
import { markCustomerDocumentsSubmitted } from '../documents/documents.repository.ts';
import { notFound } from '../http/errors.ts';
import { iso, newId, now } from '../http/ids.ts';
import type { AreaHandlers } from '../http/operations.ts';
import { listPage } from '../http/pagination.ts';
import { queueEvent } from '../webhooks/events.ts';
import { sandboxOutcome, type SandboxOutcome } from './sandbox-outcome.ts';
import { findLatestVerification, findVerification, insertVerification, listVerifications, updateVerification, type VerificationRow } from './verifications.repository.ts';

type Schemas = components['schemas'];
type Verification = Schemas['Verification'];
type VerificationStatus = Schemas['VerificationStatus'];
type VerificationError = Schemas['VerificationError'];

/** Verifications still under way: POST /verifications returns them unchanged. */
const UNDER_WAY: readonly string[] = ['READY_FOR_VERIFICATION', 'IN_PROGRESS', 'PENDING_MANUAL_REVIEW'];

const VERIFICATION_STATUS: Record<SandboxOutcome, VerificationStatus> = {
  PENDING: 'PENDING_MANUAL_REVIEW',
  REJECTED: 'REJECTED',
  APPROVED: 'APPROVED',
};

export const toVerification = (row: VerificationRow): Verification => ({
  id: row.id,
  customerId: row.customer_id,
  verificationStatus: row.verification_status as VerificationStatus,
  errors: row.errors as VerificationError[],
  createdAt: iso(row.created_at),
  updatedAt: iso(row.updated_at),
});

/** The datum each kind of customer is checked on: the registration number of a business, the name of a person. */
function checkedDatum(customer: CustomerRow): { field: string; value: string | undefined; reason: string } {
  const profile = customer.profile as { fullName?: string; businessInfo?: { registrationNumber?: string } };
  return customer.customer_type === 'BUSINESS'
    ? { field: 'businessInfo.registrationNumber', value: profile.businessInfo?.registrationNumber, reason: 'The business registration number is required for verification.' }
    : { field: 'fullName', value: profile.fullName, reason: 'The full name is required for verification.' };
}

/** Evaluates a customer: missing data gives RESOLVE_ERRORS, otherwise the sandbox decides at once. */
function evaluate(customer: CustomerRow): { status: VerificationStatus; errors: VerificationError[]; outcome?: SandboxOutcome } {
  const datum = checkedDatum(customer);
  if (datum.value === undefined || datum.value === '') {
    return { status: 'RESOLVE_ERRORS', errors: [{ resourceId: customer.id, type: 'MISSING_FIELD', field: datum.field, reason: datum.reason }] };
  }
  const outcome = sandboxOutcome(datum.value);
  return { status: VERIFICATION_STATUS[outcome], errors: [], outcome };
}

export const verificationHandlers: AreaHandlers<'createVerification' | 'listVerifications' | 'getVerification'> = {
  async createVerification(req, ctx) {
    const platformId = ctx.principal.platformId;
    // The customer's row lock serializes verifications of one customer with its other changes.
    const customer = await requireLiveCustomer(ctx.db, platformId, req.body.customerId);
    // Every document uploaded until now counts as submitted: deleteDocument refuses it from here on.
    await markCustomerDocumentsSubmitted(ctx.db, customer.id);
    const latest = await findLatestVerification(ctx.db, customer.id);
    if (latest !== undefined && UNDER_WAY.includes(latest.verification_status)) return { status: 200, body: toVerification(latest) };

    const at = now();
    const { status, errors, outcome } = evaluate(customer);
    const row =
      latest?.verification_status === 'RESOLVE_ERRORS'
        ? await updateVerification(ctx.db, latest.id, { verification_status: status, errors }, at)
        : await insertVerification(ctx.db, { id: newId('Verification'), platform_id: platformId, customer_id: customer.id, verification_status: status, errors, created_at: at, updated_at: at });
    const verification = toVerification(row);
    // The webhooks are queued in this transaction: they go out only if the change commits.
    await queueEvent(ctx.db, platformId, 'VERIFICATION_STATUS_UPDATED', verification);
    if (outcome !== undefined) {
      const business = customer.customer_type === 'BUSINESS';
      const updated = await setVerificationStatus(ctx.db, customer.id, business ? 'kyb_status' : 'kyc_status', outcome, at);
      await queueEvent(ctx.db, platformId, `CUSTOMER_${business ? 'KYB' : 'KYC'}_${outcome}`, toCustomer(updated));
    }
    return { status: 200, body: verification };
  },

  async listVerifications(req, ctx) {
    return { status: 200, body: await listPage(req.query, (filters, page) => listVerifications(ctx.db, ctx.principal.platformId, filters, page), toVerification) };
  },

  async getVerification(req, ctx) {
    const row = await findVerification(ctx.db, ctx.principal.platformId, req.path.verificationId);
    if (row === undefined) throw notFound('VERIFICATION_NOT_FOUND', 'No such verification.');
    return { status: 200, body: toVerification(row) };
  },
};
