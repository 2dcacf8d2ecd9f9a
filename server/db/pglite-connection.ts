// The `pg` connection to an embedded PGlite database. PGlite's own adapter (createPgConfig) hands
// each protocol message to the database separately and parses the answers twice, once with a
// parser of its own that copies every field; a query was then several calls into the database and
// that parser a large share of a GET's CPU (bench/README.md). This one sends a query's messages to
// PGlite as one buffer, once `pg` ends them with Sync (or Flush, or a simple Query), and parses the
// answers only with `pg`'s own parser (pg-protocol), as a `pg` connection to PostgreSQL does.
import { EventEmitter } from 'node:events';
import type { PGlite } from '@electric-sql/pglite';
import type pg from 'pg';
import { parse, serialize } from 'pg-protocol';

type Serializer = typeof serialize;

/** PGlite's one database session, which every connection object of a pool shares in turn. */
interface Session {
  pglite: PGlite;
  /** Calls into PGlite run one at a time, in order. */
  queue: Promise<void>;
  // Prepared statements belong to the session, not to one client: `pg` reads and writes these.
  parsedStatements: Record<string, string>;
  submittedNamedStatements: Record<string, string>;
}

/**
 * One `pg` client's connection to the session. Each client gets its own, so that the end of one
 * (the pool ends idle clients) reaches its listeners only, never the client made after it.
 */
export class PGliteConnection extends EventEmitter {
  // What `pg.Client` reads and writes on its connection (node_modules/pg/lib/connection.js).
  readonly parsedStatements: Record<string, string>;
  readonly submittedNamedStatements: Record<string, string>;
  _connecting = false;
  private emitMessages = false;
  private readonly session: Session;
  /** The answers, fed to pg-protocol's parser as a socket's data would be. */
  private readonly answers = new EventEmitter();
  private pending: Buffer[] = [];
  readonly stream = { destroy: () => this.end(), cork: () => {}, uncork: () => {} };

  constructor(session: Session) {
    super();
    this.session = session;
    this.parsedStatements = session.parsedStatements;
    this.submittedNamedStatements = session.submittedNamedStatements;
    this.on('newListener', (event: string) => {
      if (event === 'message') this.emitMessages = true;
    });
    void parse(this.answers as never, (msg) => {
      if (this.emitMessages) this.emit('message', msg);
      this.emit(msg.name === 'error' ? 'errorMessage' : msg.name, msg);
    });
  }

  connect(): void {
    this._connecting = true;
    // PGlite has no startup exchange: its session is ready once the calls before are done.
    this.session.queue = this.session.queue.then(() => process.nextTick(() => this.emit('readyForQuery', { name: 'readyForQuery', length: 5, status: 'I' })));
  }

  private add(message: Buffer): void {
    this.pending.push(message);
  }

  /** Sends what `pg` wrote since the last send, as one call into the database. */
  private send(): void {
    const batch = this.pending.length === 1 ? (this.pending[0] as Buffer) : Buffer.concat(this.pending);
    this.pending = [];
    this.session.queue = this.session.queue
      // The raw stream, not execProtocolRaw: that one also runs PGlite's own parser over every answer.
      // A chunk is a view of the database's memory: copied before the next one overwrites it.
      .then(() => this.session.pglite.execProtocolRawStream(batch, { onRawData: (chunk) => void this.answers.emit('data', Buffer.from(chunk)) }))
      // A failure of PGlite itself (not an SQL error, which is an answer): the client's, if it still listens.
      .catch((err: unknown) => void (this.listenerCount('error') > 0 && this.emit('error', err)));
  }

  query(text: string): void {
    this.add(serialize.query(text));
    this.send();
  }
  parse(config: Parameters<Serializer['parse']>[0]): void {
    this.add(serialize.parse(config));
  }
  bind(config: Parameters<Serializer['bind']>[0]): void {
    this.add(serialize.bind(config));
  }
  describe(config: Parameters<Serializer['describe']>[0]): void {
    this.add(serialize.describe(config));
  }
  execute(config: Parameters<Serializer['execute']>[0]): void {
    this.add(serialize.execute(config));
  }
  close(config: Parameters<Serializer['close']>[0]): void {
    this.add(serialize.close(config));
  }
  flush(): void {
    this.add(serialize.flush());
    this.send();
  }
  sync(): void {
    this.add(serialize.sync());
    this.send();
  }

  // Authentication, TLS and cancellation do not exist for an embedded database.
  requestSsl(): void {}
  startup(): void {}
  cancel(): void {}
  password(): void {}

  /** The client's end: 'end' once the calls it sent are done; the session stays open for the next client. */
  end(): void {
    this.session.queue = this.session.queue.then(() => void this.emit('end'));
  }
  ref(): void {}
  unref(): void {}
}

/**
 * `pg.Pool` settings for one PGlite database: one client at a time (PGlite has one session), each
 * made by `Client` (pg.Client, or a subclass) on a connection of its own to that session.
 */
export function pgliteConfig(pglite: PGlite, Client: typeof pg.Client) {
  const session: Session = { pglite, queue: pglite.waitReady, parsedStatements: {}, submittedNamedStatements: {} };
  class PGliteClient extends Client {
    constructor(config?: pg.ClientConfig) {
      super({ ...config, connection: new PGliteConnection(session) } as pg.ClientConfig);
    }
  }
  return { Client: PGliteClient, max: 1, host: 'pglite', user: 'postgres', database: 'postgres', password: 'unused' };
}
