// Who is calling: a platform API token (HTTP Basic) or, with the agents issue, an agent's bearer token.
import type { components } from '../../generated/openapi.js';

export type Permission = components['schemas']['Permission'];

export type Principal =
  | { kind: 'token'; credentialId: string; platformId: string; permissions: Permission[] }
  | { kind: 'agent'; credentialId: string; platformId: string; customerId: string; permissions: string[] };
