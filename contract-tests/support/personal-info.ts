// Personal data of a beneficial owner for tests and the dredd hooks alike (no test runner needed).
import type { components } from '../../generated/openapi.js';

/** A beneficial owner's personal data, checked by the sandbox on the last 3 characters of lastName. */
export const ownerPersonalInfo = (lastName = 'Smith'): components['schemas']['BeneficialOwnerPersonalInfoCreate'] => ({
  firstName: 'John',
  lastName,
  birthDate: '1978-11-05',
  nationality: 'US',
  address: { line1: '1200 Valencia Street', postalCode: '94110', country: 'US' },
  idType: 'SSN',
  identifier: '987-65-4321',
});
