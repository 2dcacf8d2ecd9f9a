import type { components } from '../../generated/openapi.js';
import { iso } from '../shared/clock.ts';
import type { TokenRow } from './tokens.repository.ts';

type Token = components['schemas']['Token'];

export const toToken = (row: TokenRow): Token => ({
  id: row.id,
  name: row.name,
  permissions: row.permissions,
  clientId: row.client_id,
  createdAt: iso(row.created_at),
  updatedAt: iso(row.updated_at),
});
