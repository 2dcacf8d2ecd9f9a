// A seed from the checked-out commit (the first 7 hex digits of HEAD), for the randomized tests
// that keep a fixed seed and add one each commit chooses, so every commit explores inputs no run
// has tried before; 1 outside a git checkout. The seed is in the test's name, to replay it.
import { execFileSync } from 'node:child_process';

export function commitSeed(): number {
  try {
    const head = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: import.meta.dirname, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    return Number.parseInt(head.slice(0, 7), 16) || 1;
  } catch {
    return 1;
  }
}
