// What a test file starts (clusters, server processes, receivers, connections), stopped in reverse
// order after its last test. Call it at the file's top level: it registers the file's afterAll.
import { afterAll } from 'vitest';

export type Cleanups = (() => Promise<unknown>)[];

export function cleanupsAfterFile(): Cleanups {
  const cleanups: Cleanups = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });
  return cleanups;
}
