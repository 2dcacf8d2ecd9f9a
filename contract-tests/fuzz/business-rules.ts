// The rules the spec states in prose beyond what its schemas can say (a field compared with
// another, a currency the service supports, an agent's own customer). A request its schemas allow
// may be refused with 400 INVALID_INPUT only when every field error is one of these; any other
// refusal of a valid request is a gap between the schemas and the server.
export interface BusinessRule {
  /** The field error's `field` and `message`. */
  field: RegExp;
  message: RegExp;
  /** Where the spec says so. */
  documented: string;
}

export const businessRules: BusinessRule[] = [
  { field: /currency|Currenc/i, message: /is not a currency the (service supports|service exchanges|sandbox can convert)/, documented: 'CurrencyCode: codes the service supports' },
  { field: /^\/supportedCurrencies\/\d+\/maxAmount$/, message: /must be at least minAmount/, documented: 'PATCH /config: a maxAmount below its minAmount' },
  { field: /^\/(supportedCurrencies|feeConfigs)\/\d+\/(currencyCode|sourceCurrency)$/, message: /is listed more than once/, documented: 'PATCH /config: a currency listed twice' },
  { field: /^\/ownershipPercentage$/, message: /required when roles include UBO/, documented: 'BeneficialOwnerCreateRequest.ownershipPercentage, BeneficialOwnerUpdateRequest' },
  { field: /^\/expiresAt$/, message: /must be in the future/, documented: 'InvitationCreateRequest.expiresAt' },
  { field: /^query\.(senderUmaAddress|customerId)$/, message: /exactly one of senderUmaAddress and customerId/, documented: 'GET /receiver/uma/{receiverUmaAddress}' },
  { field: /^\/defaultUmaDepositAccount$/, message: /Only a customer account can be the default UMA deposit account/, documented: 'ExternalAccountCreateRequest.defaultUmaDepositAccount' },
  { field: /^\/lookupId$/, message: /is of another receiver than this quote's destination/, documented: "QuoteCreateRequest.lookupId: a lookup of the destination" },
  { field: /^\/customerType$/, message: /its type cannot be changed/, documented: 'CustomerUpdateRequest: the type of a customer cannot be changed' },
  { field: /^\/policy\/accountRestrictions\/(allowed|blocked)AccountIds\/\d+$|^\/accountRestrictions\/(allowed|blocked)AccountIds\/\d+$/, message: /is not an account of customer/, documented: "AgentAccountRestrictions: accounts of the agent's customer" },
  { field: /^\/destination\/accountId$/, message: /Real-time funding pays external destinations/, documented: 'RealtimeFundingQuoteSource: it pays an external destination' },
  { field: /^\/destination\/paymentRail$/, message: /can be paid on .*, not /, documented: 'ExternalAccountDestinationReference.paymentRail: a rail the account can receive on' },
  { field: /^\/source\/accountId$/, message: /cannot pull from external accounts/, documented: 'AccountQuoteSource.accountId: a pullable external account' },
  { field: /^\/customerId$/, message: /An agent registers accounts for its own customer only/, documented: 'POST /agents/me/external-accounts' },
  { field: /^\/failureReason$/, message: /goes with status FAILED only/, documented: 'SandboxIncomingPaymentRequest.failureReason: only with status FAILED' },
  { field: /^\/(to|seconds)$/, message: /^The clock only moves forward|^One advance moves the clock by 366 days at most/, documented: "POST /sandbox/clock/advance: an instant after the platform's now, 366 days at most" },
];

/** Whether a 400 INVALID_INPUT body names only documented business rules. */
export function onlyBusinessRules(body: unknown): boolean {
  const errors = (body as { details?: { errors?: { field?: unknown; message?: unknown }[] } } | undefined)?.details?.errors ?? [];
  return errors.length > 0 && errors.every((e) => businessRules.some((r) => r.field.test(String(e.field)) && r.message.test(String(e.message))));
}
