// Time comes from a clock on the request, service or job context, never from `new Date()`, so tests
// can move it forward: a sandbox outcome due "in about 6 minutes" is testable in seconds.
export interface Clock {
  /** The current time, at millisecond precision (what timestamps and keyset cursors store). */
  now(): Date;
}

/** The system clock, shifted by an offset that only the test control changes. */
export class ShiftableClock implements Clock {
  private offsetMs = 0;

  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }

  /** Moves time forward (never back: timestamps already written must stay in the past). */
  advance(ms: number): void {
    if (!Number.isSafeInteger(ms) || ms < 0) throw new RangeError('the clock only moves forward, by a whole number of ms');
    this.offsetMs += ms;
  }

  get offset(): number {
    return this.offsetMs;
  }
}

/**
 * A platform's sandbox clock: the server's clock plus how far the platform advanced its own
 * (server/clock/). Every object, event and scheduled outcome of the platform follows it; the
 * security throttles read `realNow` instead, so advancing a clock never refills them.
 */
export class PlatformClock implements Clock {
  readonly base: Clock;
  readonly platformId: string;
  readonly offsetMs: number;

  constructor(base: Clock, platformId: string, offsetMs: number) {
    this.base = base;
    this.platformId = platformId;
    this.offsetMs = offsetMs;
  }

  now(): Date {
    return new Date(this.base.now().getTime() + this.offsetMs);
  }
}

/** The server's clock under a platform's sandbox clock (itself when it is none). */
export const realClockOf = (clock: Clock): Clock => (clock instanceof PlatformClock ? clock.base : clock);

/** The server's time whatever a platform did to its sandbox clock: for limits on guessing and failed attempts. */
export const realNow = (clock: Clock): Date => realClockOf(clock).now();

/**
 * The real time of `at`, an instant of the platform's clock: for what comes from outside the API
 * on real time (an identity provider's token). A clock advanced since `at` reads it a little early.
 */
export const realTimeOf = (clock: Clock, at: Date): Date => new Date(at.getTime() - (clock instanceof PlatformClock ? clock.offsetMs : 0));

/** The platform whose sandbox clock `clock` is, if it is one: a job scheduled on it follows it. */
export const clockPlatformOf = (clock: Clock): string | null => (clock instanceof PlatformClock ? clock.platformId : null);

/** The machine's time, never shifted: for what has nothing to do with the sandbox (files' ages on disk). */
export const machineNow = (): Date => new Date();

/** `d.toISOString()`, faster (iso-time.ts): every timestamp the API answers is written by it. */
export { isoString as iso } from './iso-time.ts';
export const addMs = (d: Date, ms: number): Date => new Date(d.getTime() + ms);
