// HotSpot flags for the checks' one-shot JVMs: openapi-generator, Maven (and the javac it runs
// in-process), the JUnit flow's forked JVM, the models' javac. Each lives for seconds: C2's
// recompilation of hot methods on background threads costs more CPU than it gives back in so short
// a run, and G1's concurrent threads more than a serial collector of a small heap. C1's code is the
// same program, only slower per call once warm; what the checks generate, compile and run is the
// same. (Node's counterpart for the suite's processes: contract-tests/support/test-process-flags.ts.)
export const JVM_FLAGS = ['-XX:TieredStopAtLevel=1', '-XX:+UseSerialGC'];

/** The environment of a Maven command: JVM_FLAGS first, then any MAVEN_OPTS of the caller's. */
export const mavenEnv = (env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv => ({ ...env, MAVEN_OPTS: [...JVM_FLAGS, env.MAVEN_OPTS ?? ''].join(' ').trim() });
