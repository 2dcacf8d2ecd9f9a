// A platform's sandbox clock as the API shows it.
import type { components } from '../../generated/openapi.js';
import { iso, type PlatformClock } from '../shared/clock.ts';

export const toSandboxClock = (clock: PlatformClock): components['schemas']['SandboxClock'] => ({ now: iso(clock.now()), offsetMs: clock.offsetMs });
