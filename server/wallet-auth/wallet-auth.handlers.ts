// Embedded Wallet credentials and sessions (the /auth paths), and the wallet's signed changes to its
// internal account (its settings, the export of its credentials).
import { withoutTransaction, type AreaHandlers } from '../context/handler-types.ts';
import { exportEmbeddedWallet, updateEmbeddedWallet } from './embedded-wallet.service.ts';
import { answerSigned } from './signed-answer.ts';
import { challengeCredential, createCredential, listCredentials, revokeCredential } from './wallet-auth.service.ts';
import { countOtpFailure, listSessions, ProofFailure, revokeSession, takeOtpAttempt, verifyCredential } from './sessions.service.ts';
import { signatureHeaders } from './signed-retry.service.ts';

export const walletAuthHandlers: AreaHandlers<
  | 'createAuthCredential'
  | 'listAuthCredentials'
  | 'revokeAuthCredential'
  | 'challengeAuthCredential'
  | 'verifyAuthCredential'
  | 'listAuthSessions'
  | 'revokeAuthSession'
  | 'updateInternalAccount'
  | 'exportInternalAccount'
> = {
  createAuthCredential: async (req, ctx) => answerSigned(201, await createCredential(ctx, req.body, signatureHeaders(req.headers))),
  listAuthCredentials: async (req, ctx) => ({ status: 200, body: await listCredentials(ctx, req.query.accountId) }),
  revokeAuthCredential: async (req, ctx) => answerSigned(204, await revokeCredential(ctx, req.path.credentialId, signatureHeaders(req.headers))),
  challengeAuthCredential: async (req, ctx) => ({ status: 200, body: await challengeCredential(ctx, req.path.credentialId, req.body) }),
  // Its own transaction: a wrong code is counted against it although the request fails.
  verifyAuthCredential: withoutTransaction(async (req, ctx) => {
    const otpAttempt = req.body.type === 'EMAIL_OTP' ? await takeOtpAttempt(ctx, req.path.credentialId) : undefined;
    try {
      return { status: 200, body: await ctx.transaction((trx) => verifyCredential(trx, req.path.credentialId, req.body, req.headers['request-id'], otpAttempt)) };
    } catch (err) {
      if (!(err instanceof ProofFailure)) throw err;
      await countOtpFailure(ctx, err);
      throw err.error;
    }
  }),
  listAuthSessions: async (req, ctx) => ({ status: 200, body: await listSessions(ctx, req.query) }),
  revokeAuthSession: async (req, ctx) => answerSigned(204, await revokeSession(ctx, req.path.sessionId, signatureHeaders(req.headers))),
  updateInternalAccount: async (req, ctx) => answerSigned(200, await updateEmbeddedWallet(ctx, req.path.accountId, req.body, signatureHeaders(req.headers))),
  exportInternalAccount: async (req, ctx) => answerSigned(200, await exportEmbeddedWallet(ctx, req.path.accountId, req.body, signatureHeaders(req.headers))),
};
