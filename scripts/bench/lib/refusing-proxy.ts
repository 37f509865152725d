/**
 * A TCP proxy on a loopback port in front of a database server, which the soak points DATABASE_URL at: while
 * it refuses, every open connection is cut and new ones meet a closed port (ECONNREFUSED), as when the
 * database server goes away; then it listens on the same port again.
 */
import { createServer, connect, type Socket } from 'node:net';

export interface RefusingProxy {
  port: number;
  /** Cuts every connection and refuses new ones for `ms`; resolves once it accepts again. */
  refuseFor(ms: number): Promise<void>;
  stop(): Promise<void>;
}

export async function startRefusingProxy(targetPort: number): Promise<RefusingProxy> {
  const open = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(targetPort, '127.0.0.1');
    for (const socket of [client, upstream]) {
      open.add(socket);
      socket.on('close', () => open.delete(socket));
      socket.on('error', () => (socket === client ? upstream : client).destroy());
    }
    client.pipe(upstream).pipe(client);
  });
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve((server.address() as { port: number }).port);
      });
    });
  const port = await listen(0);
  const cut = () => {
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const socket of open) socket.destroy();
    return closed;
  };
  return {
    port,
    refuseFor: async (ms) => {
      await cut();
      await new Promise((resolve) => setTimeout(resolve, ms));
      await listen(port);
    },
    stop: cut,
  };
}
