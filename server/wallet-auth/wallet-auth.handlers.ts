// Embedded Wallet credentials and sessions (the /auth paths).
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { unitOfWork } from '../db/unit-of-work.ts';
import { withoutTransaction, type AreaHandlers } from '../http/handler-types.ts';
import { answerSigned } from './signed-answer.ts';
import { challengeCredential, createCredential, listCredentials, revokeCredential } from './wallet-auth.service.ts';
import { countOtpFailure, listSessions, ProofFailure, revokeSession, verifyCredential } from './sessions.service.ts';
import { signatureHeaders } from './signed-retry.service.ts';

export const walletAuthHandlers: AreaHandlers<
  'createAuthCredential' | 'listAuthCredentials' | 'revokeAuthCredential' | 'challengeAuthCredential' | 'verifyAuthCredential' | 'listAuthSessions' | 'revokeAuthSession'
> = {
  createAuthCredential: async (req, ctx) => answerSigned(201, await createCredential(ctx, req.body, signatureHeaders(req.headers))),
  listAuthCredentials: async (req, ctx) => ({ status: 200, body: await listCredentials(ctx, req.query.accountId) }),
  revokeAuthCredential: async (req, ctx) => answerSigned(204, await revokeCredential(ctx, req.path.credentialId, signatureHeaders(req.headers))),
  challengeAuthCredential: async (req, ctx) => ({ status: 200, body: await challengeCredential(ctx, req.path.credentialId, req.body) }),
  // Its own transaction: a wrong code is counted against it although the request fails.
  verifyAuthCredential: withoutTransaction(async (req, ctx) => {
    const db = ctx.db as Kysely<Database>; // outside a transaction: withoutTransaction hands over the pool
    try {
      const session = await unitOfWork(ctx, db, (uow) => verifyCredential({ ...ctx, ...uow }, req.path.credentialId, req.body, req.headers['request-id']));
      return { status: 200, body: session };
    } catch (err) {
      if (!(err instanceof ProofFailure)) throw err;
      await countOtpFailure({ ...ctx, db }, err);
      throw err.error;
    }
  }),
  listAuthSessions: async (req, ctx) => ({ status: 200, body: await listSessions(ctx, req.query) }),
  revokeAuthSession: async (req, ctx) => answerSigned(204, await revokeSession(ctx, req.path.sessionId, signatureHeaders(req.headers))),
};
