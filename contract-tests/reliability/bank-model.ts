// What the accepted requests of a bank run say the ledger must hold, built from the 2xx answers
// only: the sum of the entries of every ledger account (internal accounts and the platform's
// system accounts), and the rows each accepted request created. A refused request adds nothing,
// so a refusal that left a trace shows as a difference.
export const SYSTEM = {
  settlement: (currency: string) => `SYSTEM:SETTLEMENT:${currency}`,
  inFlight: (currency: string) => `SYSTEM:IN_FLIGHT:${currency}`,
  funding: (currency: string) => `SYSTEM:SANDBOX_FUNDING:${currency}`,
};

export class BankModel {
  /** Expected sum of entries per ledger account, once every payment has settled. */
  readonly expected = new Map<string, number>();
  readonly currencyOf = new Map<string, string>();
  readonly transactions = new Set<string>();
  readonly quotes = new Set<string>();
  /** Agent actions and the status their last answer showed. */
  readonly actions = new Map<string, string>();
  /** Accepted sandbox fundings per internal account. */
  readonly fundings = new Map<string, number>();

  addAccount(id: string, currency: string): void {
    this.currencyOf.set(id, currency);
    this.expected.set(id, 0);
  }

  private currency(account: string): string {
    const currency = this.currencyOf.get(account);
    if (currency === undefined) throw new Error(`the model does not know ${account}`);
    return currency;
  }

  private add(account: string, amount: number): void {
    this.expected.set(account, (this.expected.get(account) ?? 0) + amount);
  }

  private move(from: string, to: string, amount: number): void {
    this.add(from, -amount);
    this.add(to, amount);
  }

  fund(account: string, amount: number): void {
    this.move(SYSTEM.funding(this.currency(account)), account, amount);
    this.fundings.set(account, (this.fundings.get(account) ?? 0) + 1);
  }

  /** Money that left an internal account over a rail (settled: through in-flight, if held). */
  send(account: string, amount: number): void {
    this.move(account, SYSTEM.settlement(this.currency(account)), amount);
  }

  /** Money that arrived in an internal account over a rail. */
  receive(account: string, amount: number): void {
    this.move(SYSTEM.settlement(this.currency(account)), account, amount);
  }

  /** An executed quote between two internal accounts: what was sent leaves, what is received arrives (fees and rate stay with settlement). */
  pay(from: string, sending: number, to: string, receiving: number): void {
    this.send(from, sending);
    this.receive(to, receiving);
  }

  /** Internal accounts' expected total per currency. */
  internalTotal(currency: string): number {
    let total = 0;
    for (const [account, c] of this.currencyOf) if (c === currency) total += this.expected.get(account) ?? 0;
    return total;
  }
}
