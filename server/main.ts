// `npm start`. Node's compile cache keeps every module compiled (and its types stripped) on disk, so
// a restart skips that work: about a fifth of the time to the first answer here. It applies only to
// modules loaded after it is on, hence this file, which loads the server (serve.ts) once it is.
import { enableCompileCache } from 'node:module';

enableCompileCache();
await import('./serve.ts');
