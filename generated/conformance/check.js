export { CheckFailure, CheckSkipped, contains, expectations } from "./failure.js";
