// Sandbox UMA destinations: fixed addresses at the sandbox UMA domain that receive in one currency
// and drive the outcome of a payment to them; any other address there does not exist. Spec: the
// table in the description of `GET /receiver/uma/{receiverUmaAddress}`.
import type { components } from '../../generated/openapi.js';

type FailureReason = components['schemas']['TransactionFailureReason'];
type PayerDataField = components['schemas']['PayerDataField'];
type Error404Code = NonNullable<components['schemas']['Error404']['code']>;

export const SANDBOX_UMA_DOMAIN = 'sandbox.uma.money';

export interface SandboxUmaDestination {
  /** The one currency the address receives. */
  readonly currency: string;
  /** Where a payment to it ends: `COMPLETED`, `FAILED`, or `PROCESSING` (it stays there). */
  readonly endsAs: 'COMPLETED' | 'PROCESSING' | 'FAILED';
  readonly failureReason: FailureReason | null;
  /** What the receiver asks about the sender (`requiredPayerDataFields` of a lookup). */
  readonly requiredPayerData: readonly PayerDataField[];
}

const NAME_ONLY = [{ name: 'FULL_NAME', mandatory: true }] as const;

export const SANDBOX_UMA_DESTINATIONS = {
  '$success.usd@sandbox.uma.money': { currency: 'USD', endsAs: 'COMPLETED', failureReason: null, requiredPayerData: NAME_ONLY },
  '$success.eur@sandbox.uma.money': { currency: 'EUR', endsAs: 'COMPLETED', failureReason: null, requiredPayerData: NAME_ONLY },
  // Mexican receivers ask for more about the sender, as the spec's lookup example shows.
  '$success.mxn@sandbox.uma.money': {
    currency: 'MXN',
    endsAs: 'COMPLETED',
    failureReason: null,
    requiredPayerData: [
      { name: 'FULL_NAME', mandatory: true },
      { name: 'BIRTH_DATE', mandatory: true },
      { name: 'NATIONALITY', mandatory: false },
    ],
  },
  '$pending.long.usd@sandbox.uma.money': { currency: 'USD', endsAs: 'PROCESSING', failureReason: null, requiredPayerData: NAME_ONLY },
  '$fail.compliance.usd@sandbox.uma.money': { currency: 'USD', endsAs: 'FAILED', failureReason: 'COMPLIANCE_REJECTED', requiredPayerData: NAME_ONLY },
} as const satisfies Readonly<Record<string, SandboxUmaDestination>>;

/** What a lookup of any other address at the sandbox domain answers. */
export const SANDBOX_UMA_NOT_FOUND = { httpStatus: 404, code: 'UMA_NOT_FOUND' } as const satisfies {
  httpStatus: 404;
  code: Error404Code;
};

export type SandboxUmaLookup =
  | ({ readonly kind: 'DESTINATION' } & SandboxUmaDestination)
  | ({ readonly kind: 'NOT_FOUND' } & typeof SANDBOX_UMA_NOT_FOUND)
  /** Not at the sandbox domain: these rules do not apply. */
  | { readonly kind: 'OTHER_DOMAIN' };

/** Looks `address` (`$name@domain`) up among the sandbox destinations. The domain is case-insensitive. */
export function lookupSandboxUma(address: string): SandboxUmaLookup {
  const at = address.lastIndexOf('@');
  if (at === -1 || address.slice(at + 1).toLowerCase() !== SANDBOX_UMA_DOMAIN) return { kind: 'OTHER_DOMAIN' };
  const canonical = `${address.slice(0, at)}@${SANDBOX_UMA_DOMAIN}`;
  if (!Object.hasOwn(SANDBOX_UMA_DESTINATIONS, canonical)) return { kind: 'NOT_FOUND', ...SANDBOX_UMA_NOT_FOUND };
  const destination: SandboxUmaDestination = SANDBOX_UMA_DESTINATIONS[canonical as keyof typeof SANDBOX_UMA_DESTINATIONS];
  return { kind: 'DESTINATION', ...destination };
}
