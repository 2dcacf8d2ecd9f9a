// Prints which operations of the contract the sandbox server implements and which still answer
// 501 NOT_IMPLEMENTED.
import { handlers } from '../server/operations.ts';
import { notImplemented } from '../server/http/handler-types.ts';

const entries = Object.entries(handlers);
const pending = entries.filter(([, h]) => h === notImplemented).map(([id]) => id);
const done = entries.length - pending.length;
console.log(`operation coverage: ${done} of ${entries.length} operations implemented, ${pending.length} answer 501 NOT_IMPLEMENTED`);
if (pending.length > 0) console.log(`  501: ${pending.join(', ')}`);
