// Who is calling: a platform API token (HTTP Basic), an agent's bearer token, or nobody on the one
// operation that needs no credentials (redeeming a device code: the code is the credential).
import type { components } from '../../generated/openapi.js';

export type Permission = components['schemas']['Permission'];

export type Principal =
  | { kind: 'token'; credentialId: string; platformId: string; permissions: Permission[] }
  | { kind: 'agent'; credentialId: string; platformId: string; customerId: string; permissions: AgentPermission[]; isPaused: boolean }
  | { kind: 'public'; credentialId: 'public'; platformId: '' };

export type AgentPermission = components['schemas']['AgentPermission'];
export type AgentPrincipal = Extract<Principal, { kind: 'agent' }>;

export const PUBLIC: Principal = { kind: 'public', credentialId: 'public', platformId: '' };
