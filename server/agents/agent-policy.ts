// An agent's policy applied to one action (pure): the account restrictions and spending limits
// refuse it outright; otherwise the execution mode and the approval threshold decide whether it runs
// at once or waits for the platform. Spec: AgentPolicy, AgentSpendingLimits, AgentExecutionMode.
import type { components } from '../../generated/openapi.js';

type Policy = components['schemas']['AgentPolicy'];

export interface Weighed {
  /** The accounts the action names. */
  accounts: readonly string[];
  /** The action's amount in the spending limits' currency. */
  inLimitsCurrency: number;
  /** The action's amount in the approval threshold's currency (when there is a threshold). */
  inThresholdCurrency: number;
  /** What the agent's pending and approved actions already weigh today and this month. */
  today: { total: number; count: number };
  thisMonth: { total: number };
}

export type PolicyDecision = { readonly decision: 'APPROVED' | 'PENDING_APPROVAL' } | { readonly violation: string };

/** Why the policy's accountRestrictions refuse these accounts; undefined when it allows them all. */
export function restrictionViolation(policy: Policy, accounts: readonly string[]): string | undefined {
  const allowed = policy.accountRestrictions?.allowedAccountIds;
  const outside = allowed === undefined ? [] : accounts.filter((id) => !allowed.includes(id));
  return outside.length === 0 ? undefined : `The agent's policy does not allow ${outside.join(', ')} (accountRestrictions).`;
}

export function applyPolicy(policy: Policy, action: Weighed): PolicyDecision {
  const restricted = restrictionViolation(policy, action.accounts);
  if (restricted !== undefined) return { violation: restricted };
  const limits = policy.spendingLimits;
  const amount = action.inLimitsCurrency;
  if (amount > limits.perTransactionLimit) return { violation: `${amount} ${limits.currency} is above the per-transaction limit of ${limits.perTransactionLimit}.` };
  if (limits.dailyLimit !== undefined && action.today.total + amount > limits.dailyLimit) {
    return { violation: `Today's actions would total ${action.today.total + amount} ${limits.currency}, above the daily limit of ${limits.dailyLimit}.` };
  }
  if (limits.dailyTransactionLimit !== undefined && action.today.count + 1 > limits.dailyTransactionLimit) {
    return { violation: `The daily limit of ${limits.dailyTransactionLimit} actions is reached.` };
  }
  if (limits.monthlyLimit !== undefined && action.thisMonth.total + amount > limits.monthlyLimit) {
    return { violation: `This month's actions would total ${action.thisMonth.total + amount} ${limits.currency}, above the monthly limit of ${limits.monthlyLimit}.` };
  }
  if (policy.defaultExecutionMode === 'APPROVAL_REQUIRED') return { decision: 'PENDING_APPROVAL' };
  const threshold = policy.approvalThresholds;
  return { decision: threshold !== undefined && action.inThresholdCurrency > threshold.amount ? 'PENDING_APPROVAL' : 'APPROVED' };
}
