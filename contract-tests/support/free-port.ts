// A free TCP port on 127.0.0.1, for servers the tests and the benchmark start.
import { createServer } from 'node:net';

export const freePort = (): Promise<number> =>
  new Promise((done, fail) => {
    const server = createServer();
    server.unref();
    server.on('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address !== null ? done(address.port) : fail(new Error('no port'))));
    });
  });
