// The policy rule of agent actions (server/agents/agent-policy.ts), case by case: restrictions and
// limits refuse, at the boundary exactly; the mode and the threshold decide between at once and
// waiting for approval.
import { describe, expect, it } from 'vitest';
import type { components } from '../../generated/openapi.js';
import { applyPolicy, type Weighed } from '../../server/agents/agent-policy.ts';

type Policy = components['schemas']['AgentPolicy'];

const policy = (overrides: Partial<Policy> = {}): Policy => ({
  permissions: ['CREATE_TRANSFERS'],
  defaultExecutionMode: 'AUTO',
  spendingLimits: { currency: 'USD', perTransactionLimit: 1_000, dailyLimit: 2_000, dailyTransactionLimit: 3, monthlyLimit: 5_000 },
  ...overrides,
});
const action = (overrides: Partial<Weighed> = {}): Weighed => ({
  accounts: ['InternalAccount:a', 'ExternalAccount:b'],
  inLimitsCurrency: 500,
  inThresholdCurrency: 500,
  today: { total: 0, count: 0 },
  thisMonth: { total: 0 },
  ...overrides,
});

describe('applyPolicy', () => {
  it('within every limit in AUTO mode: approved at once', () => {
    expect(applyPolicy(policy(), action())).toEqual({ decision: 'APPROVED' });
  });

  it.each([
    ['the per-transaction limit', action({ inLimitsCurrency: 1_001 })],
    ['the daily total', action({ today: { total: 1_501, count: 1 } })],
    ['the daily number of actions', action({ today: { total: 0, count: 3 } })],
    ['the monthly total', action({ thisMonth: { total: 4_501 } })],
  ])('beyond %s: a violation', (_limit, weighed) => {
    expect(applyPolicy(policy(), weighed)).toHaveProperty('violation');
  });

  it('exactly at each limit: allowed', () => {
    expect(applyPolicy(policy(), action({ inLimitsCurrency: 1_000, today: { total: 1_000, count: 2 }, thisMonth: { total: 4_000 } }))).toEqual({ decision: 'APPROVED' });
  });

  it('absent optional limits do not limit', () => {
    const open = policy({ spendingLimits: { currency: 'USD', perTransactionLimit: 1_000 } });
    expect(applyPolicy(open, action({ today: { total: 10 ** 12, count: 10 ** 6 }, thisMonth: { total: 10 ** 12 } }))).toEqual({ decision: 'APPROVED' });
  });

  it('an account outside accountRestrictions is a violation, whatever the amount', () => {
    const restricted = policy({ accountRestrictions: { allowedAccountIds: ['InternalAccount:a'] } });
    expect(applyPolicy(restricted, action({ inLimitsCurrency: 1 }))).toEqual({ violation: expect.stringContaining('ExternalAccount:b') });
  });

  it('APPROVAL_REQUIRED, or above the threshold in AUTO: waits for approval', () => {
    expect(applyPolicy(policy({ defaultExecutionMode: 'APPROVAL_REQUIRED' }), action())).toEqual({ decision: 'PENDING_APPROVAL' });
    const thresholded = policy({ approvalThresholds: { currency: 'USD', amount: 500 } });
    expect(applyPolicy(thresholded, action({ inThresholdCurrency: 500 }))).toEqual({ decision: 'APPROVED' });
    expect(applyPolicy(thresholded, action({ inThresholdCurrency: 501 }))).toEqual({ decision: 'PENDING_APPROVAL' });
  });

  it('a violation wins over waiting: an action beyond a limit never waits', () => {
    expect(applyPolicy(policy({ defaultExecutionMode: 'APPROVAL_REQUIRED' }), action({ inLimitsCurrency: 5_000 }))).toHaveProperty('violation');
  });
});
