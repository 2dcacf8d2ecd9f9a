// dredd's hook file. dredd loads hook files with require() and a stubbed `hooks` module, so this
// one is CommonJS; the hooks themselves are TypeScript (contract-hooks.ts), handed over by the
// runner in this process (run-dredd.ts) for the run about to start.
const hooks = require('hooks');

const register = globalThis[Symbol.for('payments-service.dredd-hooks')];
if (typeof register !== 'function') throw new Error('run dredd through scripts/dredd.ts (npm run test:dredd), which supplies the hooks');
register(hooks);
