// The body every webhook carries: the common envelope (spec: WebhookEvent) around the event's data.
import type { components } from '../../generated/openapi.js';
import type { WebhookEventBody } from '../db/schema.ts';
import { iso } from '../shared/clock.ts';
import { newOpaqueId } from '../shared/ids.ts';

export const toEventBody = (type: components['schemas']['WebhookEventType'], data: object, at: Date): WebhookEventBody => ({ id: newOpaqueId(), type, timestamp: iso(at), data });
