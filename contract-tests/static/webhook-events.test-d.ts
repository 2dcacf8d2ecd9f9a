// Type-level tests of emitEvent: an event's type and data are the ones the spec's `webhooks:` declare
// together, so a service cannot queue an event with another webhook's data. Run by vitest's
// typecheck mode and by `npm run typecheck`.
import { describe, expectTypeOf, it } from 'vitest';
import type { components } from '../../generated/openapi.js';
import type { EventData, EventTypeOf } from '../../server/webhooks/webhooks.service.ts';

type Schemas = components['schemas'];

describe('webhook events', () => {
  it('types each event type with the data of the webhook that carries it', () => {
    expectTypeOf<EventData<'INCOMING_PAYMENT_COMPLETED'>>().toEqualTypeOf<Schemas['IncomingTransaction']>();
    expectTypeOf<EventData<'OUTGOING_PAYMENT_EXPIRED'>>().toEqualTypeOf<Schemas['OutgoingTransaction']>();
    expectTypeOf<EventData<'AGENT_ACTION_APPROVED'>>().toEqualTypeOf<Schemas['AgentAction']>();
    expectTypeOf<EventData<'INVITATION_CLAIMED'>>().toEqualTypeOf<Schemas['Invitation']>();
  });

  it('names the event types of each webhook', () => {
    expectTypeOf<EventTypeOf<'incoming-payment'>>().toEqualTypeOf<'INCOMING_PAYMENT_PENDING' | 'INCOMING_PAYMENT_COMPLETED' | 'INCOMING_PAYMENT_FAILED'>();
  });

  it('refuses another webhook\'s data and an event type the spec does not have', () => {
    // @ts-expect-error an incoming-payment event carries an IncomingTransaction, not an AgentAction
    expectTypeOf<Schemas['AgentAction']>().toMatchTypeOf<EventData<'INCOMING_PAYMENT_PENDING'>>();
    // @ts-expect-error a TEST event carries { message }
    expectTypeOf<{ note: string }>().toMatchTypeOf<EventData<'TEST'>>();
    // @ts-expect-error no such event type
    expectTypeOf<EventData<'PAYMENT_SENT'>>().toBeNever();
  });
});
