// Ids the fuzzer has seen the server answer with, by type (`Customer`, `InternalAccount`, ...), so
// generated requests name real objects as often as made-up ones and reach past the 404s.
const ID = /^([A-Za-z]+):[0-9a-f-]{36}$/;

export class IdPool {
  private readonly byType = new Map<string, string[]>();

  /** `protectedIds` are never handed out: the fuzzer's own token and agent must survive the run. */
  private readonly protectedIds: ReadonlySet<string>;

  constructor(protectedIds: ReadonlySet<string> = new Set()) {
    this.protectedIds = protectedIds;
  }

  /** Adds every id found anywhere in a response body. */
  collect(value: unknown): void {
    if (typeof value === 'string') {
      const type = ID.exec(value)?.[1];
      if (type === undefined || this.protectedIds.has(value)) return;
      const ids = this.byType.get(type) ?? [];
      if (!ids.includes(value)) ids.push(value);
      this.byType.set(type, ids.slice(-50));
    } else if (Array.isArray(value)) {
      for (const item of value) this.collect(item);
    } else if (value !== null && typeof value === 'object') {
      for (const item of Object.values(value)) this.collect(item);
    }
  }

  /**
   * Replaces made-up ids in a generated value by known ones of the same type, when `pick` (a
   * number from the seeded plan) says so; `EmbeddedWallet:` ids are drawn from wallet accounts.
   */
  substitute<T>(value: T, pick: () => number): T {
    return this.replaceIds(value, (known) => (known.length > 0 && pick() % 5 !== 0 ? known[pick() % known.length] : undefined));
  }

  /** Replaces every id by the first known one of its type: a fixed request naming known objects. */
  named<T>(value: T): T {
    return this.replaceIds(value, (known) => known[0]);
  }

  private replaceIds<T>(value: T, choose: (known: string[]) => string | undefined): T {
    const walk = (v: unknown): unknown => {
      if (typeof v === 'string') {
        const type = ID.exec(v)?.[1];
        if (type === undefined) return v;
        const known = type === 'EmbeddedWallet' ? (this.byType.get('InternalAccount') ?? []).map((id) => id.replace(/^InternalAccount:/, 'EmbeddedWallet:')) : (this.byType.get(type) ?? []);
        return choose(known) ?? v;
      }
      if (Array.isArray(v)) return v.map(walk);
      if (v !== null && typeof v === 'object' && !(v instanceof Blob)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
      return v;
    };
    return walk(value) as T;
  }

  /** Every id collected. */
  ids(): Set<string> {
    return new Set([...this.byType.values()].flat());
  }

  get size(): number {
    return [...this.byType.values()].reduce((n, ids) => n + ids.length, 0);
  }
}
