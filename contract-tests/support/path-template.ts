// Which of the contract's path templates a request path is: the conformance kit's, one source for
// the kit, the suite's contract check and the mock's front.
export { matchPathTemplate } from '../kit/path-template.ts';
