import type { components } from '../../generated/openapi.js';
import { iso } from '../shared/clock.ts';
import { compact } from '../shared/compact.ts';
import type { BeneficialOwnerRow } from './beneficial-owners.repository.ts';

export const toBeneficialOwner = (row: BeneficialOwnerRow): components['schemas']['BeneficialOwner'] =>
  compact({
    id: row.id,
    customerId: row.customer_id,
    roles: row.roles,
    ownershipPercentage: row.ownership_percentage ?? undefined,
    personalInfo: row.personal_info,
    kycStatus: row.kyc_status,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  });
