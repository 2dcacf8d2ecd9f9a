// dredd's hook file. dredd loads hook files with require() and a stubbed `hooks` module, so this
// one is CommonJS; the hooks themselves are TypeScript (contract-hooks.ts), handed over by the
// runner in this process (run-dredd.ts) for the run against this endpoint.
const hooks = require('hooks');

const registry = globalThis[Symbol.for('payments-service.dredd-hooks')];
const register = registry instanceof Map ? registry.get(hooks.configuration.endpoint) : undefined;
if (typeof register !== 'function') throw new Error('run dredd through scripts/dredd.ts (npm run test:dredd), which supplies the hooks');
register(hooks);
