/**
 * A local stand-in for Neon's edge, in front of a real PostgreSQL: the HTTP `/sql` endpoint the serverless
 * driver's `neon()` posts to, and the `/v2` WebSocket tunnel its `Pool` speaks the wire protocol through.
 * The Neon adapter reaches it when NEON_LOCAL_PROXY is set (src/server/db/neon.ts).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect } from 'node:net';
import pg from 'pg';
import { WebSocketServer } from 'ws';

interface QueryData {
  query: string;
  params?: unknown[];
}

/** Neon answers with text values and lets the driver parse them; so do we. */
const rawText = { getTypeParser: () => (value: string) => value };

const ERROR_FIELDS = [
  'severity',
  'code',
  'detail',
  'hint',
  'position',
  'internalPosition',
  'internalQuery',
  'where',
  'schema',
  'table',
  'column',
  'dataType',
  'constraint',
  'file',
  'line',
  'routine',
];

function send(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

async function readBody(req: IncomingMessage): Promise<string> {
  let text = '';
  for await (const chunk of req) text += String(chunk);
  return text;
}

export async function startNeonProxy(target: {
  host: string;
  port: number;
}): Promise<{ address: string; stop(): Promise<void> }> {
  const pools = new Map<string, pg.Pool>();
  const poolFor = (connectionString: string) => {
    const { username, password, pathname } = new URL(connectionString);
    const database = decodeURIComponent(pathname.slice(1));
    let pool = pools.get(database);
    if (!pool) {
      pool = new pg.Pool({
        host: target.host,
        port: target.port,
        user: decodeURIComponent(username),
        password: decodeURIComponent(password),
        database,
        max: 20,
      });
      pool.on('error', () => undefined);
      pools.set(database, pool);
    }
    return pool;
  };

  const run = async (client: pg.PoolClient, { query, params = [] }: QueryData) => {
    const result = await client.query({ text: query, values: params, rowMode: 'array', types: rawText });
    return {
      command: result.command,
      rowCount: result.rowCount,
      rows: result.rows,
      fields: result.fields.map((f) => ({ ...f })),
      rowAsArray: true,
    };
  };

  const server = createServer(async (req, res) => {
    if (req.method !== 'POST' || new URL(req.url ?? '/', 'http://x').pathname !== '/sql')
      return send(res, 404, { message: 'not found' });
    const connectionString = req.headers['neon-connection-string'];
    if (typeof connectionString !== 'string')
      return send(res, 400, { message: 'missing Neon-Connection-String' });
    let client: pg.PoolClient | undefined;
    try {
      const body = JSON.parse(await readBody(req)) as QueryData | { queries: QueryData[] };
      client = await poolFor(connectionString).connect();
      if ('queries' in body) {
        const isolation = req.headers['neon-batch-isolation-level'];
        await client.query(
          `BEGIN${typeof isolation === 'string' ? ` ISOLATION LEVEL ${isolation.replace(/[^A-Za-z ]/g, '').replace(/([a-z])([A-Z])/g, '$1 $2')}` : ''}`,
        );
        try {
          const results = [];
          for (const query of body.queries) results.push(await run(client, query));
          await client.query('COMMIT');
          send(res, 200, { results });
        } catch (error) {
          await client.query('ROLLBACK');
          throw error;
        }
      } else {
        send(res, 200, await run(client, body));
      }
    } catch (error) {
      const fields = Object.fromEntries(ERROR_FIELDS.map((f) => [f, (error as Record<string, unknown>)[f]]));
      send(res, 400, { message: error instanceof Error ? error.message : String(error), ...fields });
    } finally {
      client?.release();
    }
  });

  const sockets = new WebSocketServer({ noServer: true });
  server.on('upgrade', (req, socket, head) => {
    if (!req.url?.startsWith('/v2')) return socket.destroy();
    sockets.handleUpgrade(req, socket, head, (ws) => {
      const tcp = connect(target.port, target.host);
      ws.binaryType = 'nodebuffer';
      ws.on('message', (data: Buffer) => tcp.write(data));
      tcp.on('data', (data) => ws.send(data));
      const close = () => {
        tcp.destroy();
        ws.close();
      };
      ws.on('close', close);
      ws.on('error', close);
      tcp.on('close', close);
      tcp.on('error', close);
    });
  });

  // Idle connections are closed by the client only (undici drops them after 4 s). With Node's default the proxy
  // closed them after 5 s, and a test whose worker was busy in synchronous `git` calls for longer sent its next
  // query on a socket the proxy had just closed: "fetch failed: other side closed" (a red CI run). Neon's edge
  // keeps them far longer than any client here waits.
  server.keepAliveTimeout = 0;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    address: `127.0.0.1:${port}`,
    stop: async () => {
      for (const client of sockets.clients) client.terminate();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
      await Promise.all([...pools.values()].map((p) => p.end()));
    },
  };
}
