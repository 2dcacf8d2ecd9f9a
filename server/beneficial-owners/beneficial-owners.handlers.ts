// Beneficial owners of business customers: add (with the automatic KYC check), list, get, update
// (a new last name runs the check again).
import type { components } from '../../generated/openapi.js';
import { compact } from '../customers/compact.ts';
import type { Db } from '../db/database.ts';
import { requireLiveCustomer } from '../customers/customer-access.ts';
import { badRequest, invalidField, notFound } from '../http/errors.ts';
import { iso, newId, now } from '../http/ids.ts';
import type { AreaHandlers } from '../http/operations.ts';
import { listPage } from '../http/pagination.ts';
import { sandboxOutcome } from '../verifications/sandbox-outcome.ts';
import {
  findBeneficialOwner,
  insertBeneficialOwner,
  listBeneficialOwners,
  updateBeneficialOwner,
  type BeneficialOwnerChanges,
  type BeneficialOwnerRow,
} from './beneficial-owners.repository.ts';

type Schemas = components['schemas'];
type BeneficialOwner = Schemas['BeneficialOwner'];
type PersonalInfo = Schemas['BeneficialOwnerPersonalInfo'];

export const toBeneficialOwner = (row: BeneficialOwnerRow): BeneficialOwner =>
  compact({
    id: row.id,
    customerId: row.customer_id,
    roles: row.roles as Schemas['BeneficialOwnerRole'][],
    ownershipPercentage: row.ownership_percentage ?? undefined,
    personalInfo: row.personal_info as unknown as PersonalInfo,
    kycStatus: row.kyc_status as Schemas['KycStatus'],
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  });

/** A UBO owns a share of the business: the share must be known. */
function requireShareOfUbo(roles: readonly string[], ownershipPercentage: number | null | undefined): void {
  if (roles.includes('UBO') && (ownershipPercentage === undefined || ownershipPercentage === null)) {
    throw invalidField('/ownershipPercentage', 'ownershipPercentage is required when roles include UBO.', 'required');
  }
}

export async function requireBeneficialOwner(db: Db, platformId: string, id: string): Promise<BeneficialOwnerRow> {
  const row = await findBeneficialOwner(db, platformId, id);
  if (row === undefined) throw notFound('BENEFICIAL_OWNER_NOT_FOUND', 'No such beneficial owner.');
  return row;
}

export const beneficialOwnerHandlers: AreaHandlers<'createBeneficialOwner' | 'listBeneficialOwners' | 'getBeneficialOwner' | 'updateBeneficialOwner'> = {
  async createBeneficialOwner(req, ctx) {
    const body = req.body;
    const platformId = ctx.principal.platformId;
    requireShareOfUbo(body.roles, body.ownershipPercentage);
    const customer = await requireLiveCustomer(ctx.db, platformId, body.customerId);
    if (customer.customer_type !== 'BUSINESS') {
      throw badRequest('CUSTOMER_NOT_BUSINESS', 'Beneficial owners can only be added to business customers.');
    }
    const { identifier, ...personalInfo } = body.personalInfo;
    const at = now();
    const row = await insertBeneficialOwner(ctx.db, {
      id: newId('BeneficialOwner'),
      platform_id: platformId,
      customer_id: customer.id,
      roles: [...body.roles],
      ownership_percentage: body.ownershipPercentage ?? null,
      personal_info: compact(personalInfo),
      identifier,
      // The identity check runs as the owner is added; the sandbox decides it at once.
      kyc_status: sandboxOutcome(personalInfo.lastName),
      created_at: at,
      updated_at: at,
    });
    return { status: 201, body: toBeneficialOwner(row) };
  },

  async listBeneficialOwners(req, ctx) {
    return { status: 200, body: await listPage(req.query, (filters, page) => listBeneficialOwners(ctx.db, ctx.principal.platformId, filters, page), toBeneficialOwner) };
  },

  async getBeneficialOwner(req, ctx) {
    const row = await requireBeneficialOwner(ctx.db, ctx.principal.platformId, req.path.beneficialOwnerId);
    return { status: 200, body: toBeneficialOwner(row) };
  },

  async updateBeneficialOwner(req, ctx) {
    const body = req.body;
    const platformId = ctx.principal.platformId;
    const current = await requireBeneficialOwner(ctx.db, platformId, req.path.beneficialOwnerId);
    await requireLiveCustomer(ctx.db, platformId, current.customer_id);
    const changes: BeneficialOwnerChanges = {};
    if (body.roles !== undefined) changes.roles = [...body.roles];
    if (body.ownershipPercentage !== undefined) changes.ownership_percentage = body.ownershipPercentage;
    requireShareOfUbo(changes.roles ?? current.roles, changes.ownership_percentage ?? current.ownership_percentage);
    if (body.personalInfo !== undefined) {
      const { identifier, ...fields } = body.personalInfo;
      const before = current.personal_info as unknown as PersonalInfo;
      changes.personal_info = { ...before, ...compact(fields) };
      if (identifier !== undefined) changes.identifier = identifier;
      // A new last name is a new identity check.
      if (fields.lastName !== undefined && fields.lastName !== before.lastName) changes.kyc_status = sandboxOutcome(fields.lastName);
    }
    const row = await updateBeneficialOwner(ctx.db, current.id, changes, now());
    return { status: 200, body: toBeneficialOwner(row) };
  },
};
