/** Loopback ports for the servers the tests and scripts start. */
import { createServer, type AddressInfo } from 'node:net';

/** Whether `port` can be bound on 127.0.0.1 now; resolves with the bound port (the kernel's choice for 0). */
function bind(port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      const { port: bound } = server.address() as AddressInfo;
      server.close(() => resolve(bound));
    });
  });
}

/** `preferred` when nothing listens on it, otherwise (or without one) a free port from the kernel. */
export function freePort(preferred = 0): Promise<number> {
  return preferred ? bind(preferred).catch(() => bind(0)) : bind(0);
}
