import type { components } from '../../generated/openapi.js';
import { iso } from '../shared/clock.ts';
import type { VerificationRow } from './verifications.repository.ts';

export const toVerification = (row: VerificationRow): components['schemas']['Verification'] => ({
  id: row.id,
  customerId: row.customer_id,
  verificationStatus: row.verification_status,
  errors: row.errors,
  createdAt: iso(row.created_at),
  updatedAt: iso(row.updated_at),
});
