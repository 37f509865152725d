/** The preview server a page benchmark measures against, started on its own port and stopped by the caller. */
import { spawn, type ChildProcess } from 'node:child_process';

/**
 * A benchmark stopped by a signal (Ctrl-C, `timeout`'s or a CI runner's SIGTERM) exits, so that its `exit`
 * handlers stop what it started: without them the preview and a browser outlived it and kept the port.
 */
export function exitOnSignals(): void {
  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)
    if (process.listenerCount(signal) === 0) process.once(signal, () => process.exit(code));
}

/** Starts `scripts/preview.ts` on `port` and resolves once it serves; rejects if it exits first. */
export async function startPreview(port: number): Promise<ChildProcess> {
  const server = spawn(process.execPath, ['scripts/preview.ts'], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  exitOnSignals();
  process.once('exit', () => server.kill('SIGTERM'));
  await new Promise<void>((resolve, reject) => {
    server.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('Preview:') && resolve());
    server.on('exit', (code) => reject(new Error(`preview server exited with ${code}`)));
  });
  return server;
}
