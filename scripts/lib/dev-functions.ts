/**
 * `npm run dev`'s functions: netlify/functions answer on Astro's port, each loaded from its source through
 * Vite's server-side module runner when it is first called, and loaded again after an edit to it or to
 * anything it imports. Routes and schedules come from each function's `config` as Netlify reads it
 * (@netlify/zip-it-and-ship-it's `listFunctions`); the calls go through the same host as the preview's
 * (scripts/lib/function-host.ts).
 *
 * Not @netlify/vite-plugin's function emulation: before serving anything it traced all 42 functions'
 * imports with @vercel/nft, one function at a time, on Astro's own thread (153 s of a quiet fresh clone's
 * start, 494 s beside other work), and Astro gives its content config five seconds to load before it skips
 * the content sync, so a busy machine's `npm run dev` served every page without its collections
 * (docs/decisions.md).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { isRunnableDevEnvironment, type ViteDevServer } from 'vite';
import {
  createFunctionHost,
  discardUnreadBody,
  requestFrom,
  type FunctionHost,
  type Handler,
} from './function-host.ts';

/**
 * The functions in `root`/netlify/functions as a host whose handlers the dev server's `ssr` environment
 * loads.
 * @param oneAtATime against the embedded database (see {@link createFunctionHost})
 */
export async function devFunctionHost(
  server: ViteDevServer,
  root: string,
  siteUrl: string,
  { oneAtATime = false } = {},
): Promise<FunctionHost> {
  const environment = server.environments.ssr;
  if (!environment || !isRunnableDevEnvironment(environment))
    throw new Error("The dev server's ssr environment cannot run modules in this process");
  const { listFunctions } = await import('@netlify/zip-it-and-ship-it');
  const listed = await listFunctions([join(root, 'netlify', 'functions')], { parseISC: true });
  return createFunctionHost(
    listed.map((fn) => ({
      name: fn.name,
      routes: fn.routes ?? [],
      handler: async () => {
        const module = (await environment.runner.import(fn.mainFile)) as { default?: unknown };
        if (typeof module.default !== 'function') throw new Error(`${fn.mainFile} has no default export`);
        return module.default as Handler;
      },
    })),
    siteUrl,
    { oneAtATime },
  );
}

/**
 * Connect middleware for the dev server: a request a function's route matches goes to that function, any
 * other to the next handler (Astro's pages). The host is made on the first request, so the server starts
 * without waiting for it.
 */
export function devFunctionMiddleware(
  host: () => Promise<FunctionHost>,
  origin: string,
  ownHosts: Set<string>,
): (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void {
  return (req, res, next) => {
    void (async () => {
      const functions = await host();
      // Matched on method and path alone, so a request for a page goes on with its body untouched.
      const probe = new Request(new URL(req.url ?? '/', origin), { method: req.method });
      if (!functions.matches(probe)) return next();
      const request = requestFrom(req, origin, ownHosts);
      const response = (await functions.handle(request, req.socket.remoteAddress ?? ''))!;
      discardUnreadBody(req, res);
      res.writeHead(response.status, [...response.headers].flat());
      if (!response.body || req.method === 'HEAD') res.end();
      else Readable.fromWeb(response.body as never).pipe(res);
    })().catch(next);
  };
}
