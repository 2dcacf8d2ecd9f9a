// The operations of a bank run: planned from the seed (kind, accounts, amount, process, duplicate),
// then sent and their answers checked against the contract and added to the model. Every POST has
// its own Idempotency-Key; an accepted answer adds its effect to the model, a documented refusal
// (400 INSUFFICIENT_FUNDS, or an approved agent action that FAILED for want of funds) adds nothing.
import type { Reply } from '../support/cluster.ts';
import type { BankRequest, Duplicate, Journal } from './bank-journal.ts';
import type { BankModel } from './bank-model.ts';
import type { Random } from './bank-random.ts';
import type { BankCustomer, BankWorld } from './bank-world.ts';

export const OPERATION_KINDS = ['transfer', 'convert', 'payout', 'topup', 'fund', 'pay-external', 'agent-payout', 'agent-convert'] as const;
export type OperationKind = (typeof OPERATION_KINDS)[number];

/** How often each kind is planned (out of their sum). */
const WEIGHTS: Record<OperationKind, number> = { transfer: 30, convert: 14, payout: 12, topup: 7, fund: 5, 'pay-external': 8, 'agent-payout': 12, 'agent-convert': 12 };

export interface PlannedOperation {
  index: number;
  kind: OperationKind;
  from: number;
  to: number;
  amount: number;
  /** Conversions and fundings: from (or of) the EUR account instead of the USD one. */
  euro: boolean;
  via: number;
  duplicate: Duplicate;
  /** Which POST of the operation is sent twice. */
  duplicateStep: number;
}

export interface PlanShape {
  customers: number;
  /** Customers 0 … hot − 1 get most of the traffic; they are also the ones with an agent. */
  hot: number;
  /** Share of operations on a hot customer. */
  hotShare: number;
  /** Share of amounts drawn large enough to overdraw an account now and then. */
  largeShare: number;
  duplicateShare: number;
}

function pickKind(random: Random): OperationKind {
  const total = OPERATION_KINDS.reduce((s, k) => s + WEIGHTS[k], 0);
  let roll = random.next() * total;
  for (const kind of OPERATION_KINDS) {
    roll -= WEIGHTS[kind];
    if (roll < 0) return kind;
  }
  return 'transfer';
}

export function planOperations(random: Random, shape: PlanShape, count: number): PlannedOperation[] {
  const customer = () => (random.chance(shape.hotShare) ? random.int(0, shape.hot - 1) : random.int(0, shape.customers - 1));
  return Array.from({ length: count }, (_, index) => {
    const kind = pickKind(random);
    // Agents act for the hot customers only.
    const from = kind.startsWith('agent-') ? random.int(0, shape.hot - 1) : customer();
    let to = customer();
    while (to === from) to = random.int(0, shape.customers - 1);
    const amount = random.chance(shape.largeShare) ? random.int(20_000, 150_000) : random.int(100, 3_000);
    const duplicate: Duplicate = random.chance(shape.duplicateShare) ? (random.chance(0.5) ? 'concurrent' : 'sequential') : 'none';
    return { index, kind, from, to, amount, euro: random.chance(0.3), via: random.int(0, 1), duplicate, duplicateStep: random.int(0, 2) };
  });
}

/** Tallies of a run, per kind: accepted, refused as documented, and anything else. */
export type Tally = Record<OperationKind, { accepted: number; refused: number }>;
export const emptyTally = (): Tally => Object.fromEntries(OPERATION_KINDS.map((k) => [k, { accepted: 0, refused: 0 }])) as Tally;

interface Quote {
  id: string;
  status: string;
  transactionId?: string;
  totalSendingAmount: number;
  totalReceivingAmount: number;
}

interface Action {
  id: string;
  status: string;
  transactionId?: string;
  transaction?: { status: string; failureReason?: string };
  quote?: Quote;
}

export interface OperationContext {
  journal: Journal;
  model: BankModel;
  world: BankWorld;
  tally: Tally;
  prefix: string;
}

/** Runs one planned operation to its end. */
export async function runOperation(ctx: OperationContext, op: PlannedOperation): Promise<void> {
  const { journal, model, world, tally } = ctx;
  const a = world.customers[op.from] as BankCustomer;
  const b = world.customers[op.to] as BankCustomer;
  const label = `#${op.index} ${op.kind}`;
  let step = 0;
  /** The operation's next POST: its own key, the processes alternating, the planned step sent twice. */
  const post = (path: string, body: unknown, bearer?: string): Promise<Reply> => {
    const request: BankRequest = { via: op.via + step, method: 'POST', path, body, key: `${ctx.prefix}-${op.index}-${step}`, label: `${label} step ${step}`, ...(bearer === undefined ? {} : { bearer }) };
    const duplicate = step === op.duplicateStep ? op.duplicate : 'none';
    step++;
    return journal.send(request, duplicate);
  };
  const accepted = () => tally[op.kind].accepted++;
  const unexpected = (reply: Reply, what: string) => journal.violation('documented-answer', `${label}: expected ${what}, got ${reply.status} ${reply.text.slice(0, 300)}`);
  /** A 400 INSUFFICIENT_FUNDS is the documented refusal of an overdraft; anything else is not. */
  const refusedOrUnexpected = (reply: Reply, what: string) => {
    if (reply.status === 400 && reply.body?.code === 'INSUFFICIENT_FUNDS') tally[op.kind].refused++;
    else unexpected(reply, what);
  };
  const quoteBody = (source: string, destination: string, immediatelyExecute: boolean) => ({
    source: { sourceType: 'ACCOUNT', accountId: source },
    destination: { destinationType: 'ACCOUNT', accountId: destination },
    lockedCurrencySide: 'SENDING',
    lockedCurrencyAmount: op.amount,
    ...(immediatelyExecute ? { immediatelyExecute } : {}),
  });
  const [ownFrom, ownTo] = op.euro ? [a.eur, a.usd] : [a.usd, a.eur];

  switch (op.kind) {
    case 'transfer': {
      // Between two customers' USD accounts: a quote executed at once, credited at once.
      const reply = await post('/quotes', quoteBody(a.usd, b.usd, true));
      const quote = reply.body as Quote | undefined;
      if (reply.status === 201 && quote?.status === 'COMPLETED' && quote.transactionId !== undefined) {
        accepted();
        model.quotes.add(quote.id);
        model.transactions.add(quote.transactionId);
        model.pay(a.usd, quote.totalSendingAmount, b.usd, quote.totalReceivingAmount);
      } else refusedOrUnexpected(reply, '201 COMPLETED or 400 INSUFFICIENT_FUNDS');
      return;
    }
    case 'convert': {
      // Between a customer's own USD and EUR accounts: quote, then execute.
      const created = await post('/quotes', quoteBody(ownFrom, ownTo, false));
      const quote = created.body as Quote | undefined;
      if (created.status !== 201 || quote?.status !== 'PENDING') return unexpected(created, '201 PENDING');
      model.quotes.add(quote.id);
      const executed = await post(`/quotes/${quote.id}/execute`, undefined);
      const done = executed.body as Quote | undefined;
      if (executed.status === 200 && done?.status === 'COMPLETED' && done.transactionId !== undefined) {
        accepted();
        model.transactions.add(done.transactionId);
        model.pay(ownFrom, done.totalSendingAmount, ownTo, done.totalReceivingAmount);
      } else refusedOrUnexpected(executed, '200 COMPLETED or 400 INSUFFICIENT_FUNDS');
      return;
    }
    case 'payout': {
      const reply = await post('/transfer-out', { source: { accountId: a.usd }, destination: { accountId: a.externalUsd }, amount: op.amount });
      if (reply.status === 201 && reply.body?.status === 'COMPLETED') {
        accepted();
        model.transactions.add(reply.body.id as string);
        model.send(a.usd, op.amount);
      } else refusedOrUnexpected(reply, '201 COMPLETED or 400 INSUFFICIENT_FUNDS');
      return;
    }
    case 'topup': {
      const reply = await post('/transfer-in', { source: { accountId: a.externalUsd }, destination: { accountId: a.usd }, amount: op.amount });
      if (reply.status !== 201 || reply.body?.status !== 'COMPLETED') return unexpected(reply, '201 COMPLETED');
      accepted();
      model.transactions.add(reply.body.id as string);
      model.receive(a.usd, op.amount);
      return;
    }
    case 'fund': {
      const account = op.euro ? a.eur : a.usd;
      const reply = await post(`/sandbox/internal-accounts/${account}/fund`, { amount: op.amount });
      const balance = (reply.body?.balance as { amount?: number } | undefined)?.amount;
      if (reply.status !== 200 || balance === undefined) return unexpected(reply, '200 with the balance');
      accepted();
      model.fund(account, op.amount);
      if (balance < op.amount) journal.violation('balances-match-requests', `${label}: funded ${op.amount}, the balance answered is ${balance}`);
      return;
    }
    case 'pay-external': {
      // To the customer's own EUR bank account: held at once, settled by a job a few seconds later.
      const reply = await post('/quotes', quoteBody(a.usd, a.externalEur, true));
      const quote = reply.body as Quote | undefined;
      if (reply.status === 201 && quote?.status === 'PROCESSING' && quote.transactionId !== undefined) {
        accepted();
        model.quotes.add(quote.id);
        model.transactions.add(quote.transactionId);
        model.send(a.usd, quote.totalSendingAmount);
      } else refusedOrUnexpected(reply, '201 PROCESSING or 400 INSUFFICIENT_FUNDS');
      return;
    }
    case 'agent-payout':
    case 'agent-convert': {
      const agent = world.agents.get(a.index);
      if (agent === undefined) throw new Error(`${label}: customer ${a.index} has no agent`);
      let submitted: Reply;
      let quote: Quote | undefined;
      if (op.kind === 'agent-payout') {
        submitted = await post('/agents/me/transfer-out', { source: { accountId: a.usd }, destination: { accountId: a.externalUsd }, amount: op.amount }, agent.accessToken);
      } else {
        const created = await post('/agents/me/quotes', quoteBody(ownFrom, ownTo, false), agent.accessToken);
        quote = created.body as Quote | undefined;
        if (created.status !== 201 || quote?.status !== 'PENDING') return unexpected(created, '201 PENDING');
        model.quotes.add(quote.id);
        submitted = await post(`/agents/me/quotes/${quote.id}/execute`, undefined, agent.accessToken);
      }
      const action = submitted.body as Action | undefined;
      const expectedSubmit = op.kind === 'agent-payout' ? 201 : 200;
      if (submitted.status !== expectedSubmit || action?.status !== 'PENDING_APPROVAL' || action.transactionId === undefined) return unexpected(submitted, `${expectedSubmit} PENDING_APPROVAL`);
      model.actions.set(action.id, action.status);
      model.transactions.add(action.transactionId);
      // The platform approves; the balance is checked now, and a shortfall FAILS the action.
      const approved = await post(`/agents/${agent.agentId}/actions/${action.id}/approve`, undefined);
      const decided = approved.body as Action | undefined;
      if (approved.status !== 200 || decided === undefined) return unexpected(approved, '200 APPROVED or FAILED');
      model.actions.set(decided.id, decided.status);
      if (decided.status === 'FAILED' && decided.transaction?.status === 'FAILED' && decided.transaction.failureReason === 'INSUFFICIENT_FUNDS') {
        tally[op.kind].refused++;
      } else if (decided.status === 'APPROVED' && decided.transaction?.status === 'COMPLETED') {
        accepted();
        if (quote === undefined) model.send(a.usd, op.amount);
        else model.pay(ownFrom, quote.totalSendingAmount, ownTo, quote.totalReceivingAmount);
      } else unexpected(approved, '200 APPROVED with a COMPLETED transaction, or FAILED for INSUFFICIENT_FUNDS');
      return;
    }
  }
}
