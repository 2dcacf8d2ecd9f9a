// V8 flags for the processes that run the suite's servers: vitest's workers (servers in process)
// and the servers server-process.ts spawns. Each such process compiles PGlite's WebAssembly anew,
// and V8 then recompiles its hot functions with its optimizing compiler on background threads:
// about 0.6 CPU-s per server start, and a fifth of the contract suite's CPU on two cores. A test
// process lives for seconds, too short for optimized code to pay that back. The baseline
// compiler's code is the same program: the same SQL gives the same answers, only slower per call.
// The benchmark's servers (scripts/bench/processes.ts) and `npm start` keep V8's defaults.
export const TEST_PROCESS_FLAGS = ['--liftoff-only'];
