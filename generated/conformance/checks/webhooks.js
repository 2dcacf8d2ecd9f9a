import { CheckFailure, CheckSkipped } from "../check.js";
import { webhookViolations } from "../contract.js";
import { accountInfo, accountOf, accountPair, agent, business, externalAccount, fund, individual, verification } from "../fixtures.js";
import { parseDelivery, verify } from "../webhook-hub.js";
import { check, enc } from "./define.js";
import { created, transferIn, transferOut } from "./transfers.js";
const SIGNED = 'webhooks are signed with Standard Webhooks: webhook-signature holds v1, and the base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{raw body}" keyed with the whsec_ secret PATCH /config returned (webhooks guide)';
function hubOf(t) {
    if (t.webhookProblem !== undefined)
        throw new CheckFailure('the platform can be pointed at a webhook endpoint: setting the first answers its signing secret, shown once, and the configuration keeps it (updatePlatformConfig; PlatformConfig.webhookSigningSecret)', 'an endpoint set, with its webhookSigningSecret', t.webhookProblem);
    if (t.webhooks === undefined)
        throw new CheckFailure('the platform can be pointed at a webhook endpoint (updatePlatformConfig)', 'the kit\'s receiver set up', 'no webhook set-up');
    return t.webhooks;
}
/** A delivery verified and checked against the contract; the event it carries. */
function checked(hub, delivery) {
    const attempts = [...hub.secrets].reverse().map((secret) => verify(secret, delivery));
    const good = attempts.find((a) => a.event !== undefined);
    if (good?.event === undefined) {
        // The timestamp's value, and how far it is from when the delivery came: a signature is refused
        // for a timestamp over 5 minutes off (Standard Webhooks) as well as for a wrong HMAC.
        const stamp = delivery.headers['webhook-timestamp'];
        const off = stamp === undefined || !/^\d+$/.test(stamp) ? 'not a number of seconds' : `${Math.round(Number(stamp) - delivery.at / 1000)} s from its arrival`;
        throw new CheckFailure(SIGNED, 'a signature that verifies with the secret', `${attempts[0]?.error ?? 'no signature'} (webhook-id ${delivery.headers['webhook-id'] ?? 'none'}, webhook-timestamp ${JSON.stringify(stamp ?? null)}: ${off}, webhook-signature ${delivery.headers['webhook-signature'] ?? 'none'}, body ${delivery.body.slice(0, 200)})`);
    }
    const event = good.event;
    if (delivery.headers['webhook-id'] !== event.id)
        throw new CheckFailure("the webhook-id header is the body's id, the same on every retry (webhooks guide)", String(event.id), String(delivery.headers['webhook-id']));
    const [violation] = webhookViolations(event);
    if (violation !== undefined)
        throw new CheckFailure(violation.rule, `a ${event.type} body the spec allows`, `${violation.problem} (webhook-id ${event.id})`);
    return event;
}
/** Waits for `count` events matching `match`, each checked; fails naming what did not come. */
async function events(t, what, match, count = 1, timeoutMs = t.outcomeWaitMs, since = 0) {
    const hub = hubOf(t);
    const deliveries = await hub.waitFor(match, count, timeoutMs, since);
    if (deliveries.length < count) {
        const seen = hub.receiver.deliveries.map((d) => parseDelivery(d)?.type).slice(-10);
        throw new CheckFailure(`the implementation sends ${what} (webhooks guide; spec: webhooks)`, `${count} such webhook${count === 1 ? '' : 's'} within ${Math.round(timeoutMs / 1000)} s`, `${deliveries.length} (the last deliveries: ${JSON.stringify(seen)})`);
    }
    return deliveries.map((d) => checked(hub, d));
}
const about = (id) => (e) => e.data?.id === id;
export function webhookChecks() {
    const needs = ['state', 'webhooks'];
    return [
        check('webhooks.test', { operations: ['sendSandboxTestWebhook'], status: 200, rule: 'POST /sandbox/webhooks/test sends a signed TEST event to the endpoint and reports what it answered (sendSandboxTestWebhook; webhooks guide)', needs: [...needs], tags: ['webhooks'] }, async (t) => {
            const hub = hubOf(t);
            const since = Date.now();
            const result = t.expect(await t.call('POST', '/sandbox/webhooks/test'), 200, 'sendSandboxTestWebhook answers 200');
            t.is.contains(result, { response_status: 200, url: hub.url }, 'the result reports the endpoint and its 200');
            // Only those since: a TEST from before (the set-up's) may be signed with a secret since rotated.
            const [event] = await events(t, 'a TEST event for POST /sandbox/webhooks/test', (e) => e.type === 'TEST', 1, t.outcomeWaitMs, since);
            t.is.ok(event !== undefined, 'a TEST event arrives', 'one', () => 'none');
            const busy = hub.receiver.answer((body) => body.includes('"TEST"'), 503, 'busy');
            try {
                const reported = t.expect(await t.call('POST', '/sandbox/webhooks/test'), 200, 'sendSandboxTestWebhook answers 200 whatever the endpoint answered');
                t.is.contains(reported, { response_status: 503, response_body: 'busy' }, 'the result reports what the endpoint answered (sendSandboxTestWebhook)');
            }
            finally {
                busy();
            }
            t.is.ok(hub.receiver.deliveries.some((d) => d.at >= since), 'the test webhooks reached the receiver', 'deliveries', () => 'none');
        }),
        check('webhooks.outgoing-payment', { operations: ['createTransferOut'], rule: 'a transfer-out sends outgoing-payment events about its transaction; the last, OUTGOING_PAYMENT_COMPLETED, carries the transaction as GET answers it (webhooks guide; spec: webhooks outgoing-payment)', needs: [...needs, 'sandbox'], tags: ['webhooks'] }, async (t) => {
            const { internal, external } = await accountPair(t, '000', 10_000);
            const tx = created(t, await transferOut(t, internal.id, external.id, 2_500));
            const [completed] = await events(t, `OUTGOING_PAYMENT_COMPLETED for ${tx.id}`, (e) => about(tx.id)(e) && e.type === 'OUTGOING_PAYMENT_COMPLETED');
            const now = t.expect(await t.call('GET', `/transactions/${enc(tx.id)}`), 200, 'getTransaction answers 200');
            t.is.equal(completed?.data, now, 'the event carries the transaction after the change (spec: OutgoingPaymentWebhookEvent.data)');
            for (const e of await events(t, `outgoing-payment events for ${tx.id}`, about(tx.id)))
                t.is.ok(e.type.startsWith('OUTGOING_PAYMENT_'), 'a transfer-out sends outgoing-payment events', 'OUTGOING_PAYMENT_*', () => e.type);
        }),
        check('webhooks.incoming-payment', { operations: ['createTransferIn', 'fundSandboxInternalAccount'], rule: 'a transfer-in and sandbox funding send incoming-payment events about their transactions (webhooks guide; spec: webhooks incoming-payment)', needs: [...needs, 'sandbox'], tags: ['webhooks'] }, async (t) => {
            const { internal, external } = await accountPair(t, '000', 1_000);
            const tx = created(t, await transferIn(t, external.id, internal.id, 2_500));
            const [event] = await events(t, `INCOMING_PAYMENT_COMPLETED for ${tx.id}`, (e) => about(tx.id)(e) && e.type === 'INCOMING_PAYMENT_COMPLETED');
            t.is.contains(event?.data, { id: tx.id, status: 'COMPLETED', receivedAmount: { amount: 2_500 } }, 'the event carries the completed transaction');
            const other = await accountOf(t, (await individual(t)).id);
            await fund(t, other.id, 700);
            const [funding] = await events(t, `INCOMING_PAYMENT_COMPLETED for the funding of ${other.id}`, (e) => e.type === 'INCOMING_PAYMENT_COMPLETED' && e.data.destination?.accountId === other.id);
            t.is.contains(funding?.data, { receivedAmount: { amount: 700 } }, 'funding is an incoming payment');
        }),
        check('webhooks.verification', { operations: ['createVerification'], rule: 'a verification sends VERIFICATION_STATUS_UPDATED and, once decided, CUSTOMER_KYB_<outcome> with the customer (webhooks guide; spec: webhooks verification-status, customer-status)', needs: [...needs, 'sandbox'], tags: ['webhooks'] }, async (t) => {
            const company = await business(t, {}, { registrationNumber: 'C4829002' });
            const made = await verification(t, company.id);
            t.is.equal(made.verificationStatus, 'REJECTED', 'registrationNumber ending 002 is REJECTED (sandbox guide)');
            const [updated] = await events(t, `VERIFICATION_STATUS_UPDATED for ${made.id}`, (e) => e.type === 'VERIFICATION_STATUS_UPDATED' && e.data.id === made.id);
            t.is.contains(updated?.data, { id: made.id, customerId: company.id, verificationStatus: 'REJECTED' }, 'the event carries the verification');
            const [customer] = await events(t, `CUSTOMER_KYB_REJECTED for ${company.id}`, (e) => e.type === 'CUSTOMER_KYB_REJECTED' && e.data.id === company.id);
            t.is.contains(customer?.data, { id: company.id, kybStatus: 'REJECTED' }, 'the event carries the customer after the change');
        }),
        check('webhooks.agent-action', { operations: ['createCurrentAgentTransferOut', 'approveAgentAction'], rule: 'an action that waits sends AGENT_ACTION_PENDING_APPROVAL, and its approval AGENT_ACTION_APPROVED (agents guide; spec: webhooks agent-action-status)', needs: [...needs, 'sandbox'], tags: ['webhooks', 'agents'] }, async (t) => {
            const customer = await individual(t);
            const usd = await fund(t, (await accountOf(t, customer.id)).id, 10_000);
            const bank = await externalAccount(t, customer.id, 'USD', accountInfo.usd());
            const a = await agent(t, { defaultExecutionMode: 'APPROVAL_REQUIRED' }, customer.id);
            const action = t.expect(await t.call('POST', '/agents/me/transfer-out', { body: { source: { accountId: usd.id }, destination: { accountId: bank.id }, amount: 500 }, key: t.key(), as: { bearer: a.accessToken } }), 201, 'createCurrentAgentTransferOut answers 201');
            await events(t, `AGENT_ACTION_PENDING_APPROVAL for ${action.id}`, (e) => e.type === 'AGENT_ACTION_PENDING_APPROVAL' && e.data.id === action.id);
            t.expect(await t.call('POST', `/agents/${enc(a.agentId)}/actions/${enc(action.id)}/approve`, { key: t.key() }), 200, 'approveAgentAction answers 200');
            const [approved] = await events(t, `AGENT_ACTION_APPROVED for ${action.id}`, (e) => e.type === 'AGENT_ACTION_APPROVED' && e.data.id === action.id);
            t.is.contains(approved?.data, { id: action.id, status: 'APPROVED' }, 'the event carries the action after the change');
        }),
        check('webhooks.invitation-claimed', { operations: ['createInvitation', 'claimInvitation'], rule: 'claiming an invitation sends INVITATION_CLAIMED, with the invitation CLAIMED, to the platform that created it (spec: webhooks invitation-claimed)', needs: [...needs], tags: ['webhooks', 'invitations'] }, async (t) => {
            const invitation = t.expect(await t.call('POST', '/invitations', { body: { inviterUma: `$${t.uid()}@payments.example.org` }, key: t.key() }), 201, 'createInvitation answers 201');
            t.expect(await t.call('POST', `/invitations/${enc(invitation.code)}/claim`, { body: { inviteeUma: `$${t.uid()}@wallet.example.com` } }), 200, 'claimInvitation answers 200');
            const [event] = await events(t, `INVITATION_CLAIMED for ${invitation.code}`, (e) => e.type === 'INVITATION_CLAIMED' && e.data.code === invitation.code);
            t.is.contains(event?.data, { code: invitation.code, status: 'CLAIMED' }, 'the event carries the claimed invitation');
        }),
        check('webhooks.rotate', { operations: ['updatePlatformConfig', 'sendSandboxTestWebhook'], status: 200, rule: 'rotateWebhookSigningSecret answers a new secret, once; the webhooks that follow are signed with it, not the old one (PlatformConfig.webhookSigningSecret; webhooks guide)', needs: [...needs], tags: ['webhooks'] }, async (t) => {
            const hub = hubOf(t);
            if (!hub.ownEndpoint)
                throw new CheckSkipped('the platform had a webhook endpoint before the run: the kit does not rotate its secret');
            const old = hub.secrets.at(-1) ?? '';
            const rotated = t.expect(await t.call('PATCH', '/config', { body: { rotateWebhookSigningSecret: true } }), 200, 'updatePlatformConfig answers 200');
            const secret = rotated.webhookSigningSecret;
            if (secret === undefined)
                throw new CheckFailure('a rotation answers the new secret (PlatformConfig.webhookSigningSecret)', 'a webhookSigningSecret', 'none');
            t.is.ok(secret !== old, 'a rotation makes a new secret', 'another secret', () => 'the same');
            hub.secrets.push(secret);
            const since = Date.now();
            t.expect(await t.call('POST', '/sandbox/webhooks/test'), 200, 'sendSandboxTestWebhook answers 200');
            const tests = () => hub.receiver.deliveries.filter((d) => d.at >= since && parseDelivery(d)?.type === 'TEST');
            const { value, met } = await t.poll(async () => tests(), (list) => list.length > 0);
            const latest = value[0];
            if (!met || latest === undefined)
                throw new CheckFailure('the implementation sends a TEST event for POST /sandbox/webhooks/test', 'a delivery', 'none');
            t.is.ok(verify(secret, latest).event !== undefined, `${SIGNED}: after a rotation, with the new secret`, 'a signature that verifies with the new secret', () => verify(secret, latest).error ?? '');
            t.is.ok(verify(old, latest).event === undefined, 'after a rotation the old secret no longer signs (webhooks guide)', 'a signature the old secret does not verify', () => 'verified with the old secret');
        }),
    ];
}
