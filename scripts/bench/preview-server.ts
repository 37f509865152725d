/** The preview server a page benchmark measures against, started on its own port and stopped by the caller. */
import { spawn, type ChildProcess } from 'node:child_process';

/** Starts `scripts/preview.ts` on `port` and resolves once it serves; rejects if it exits first. */
export async function startPreview(port: number): Promise<ChildProcess> {
  const server = spawn(process.execPath, ['scripts/preview.ts'], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    server.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('Preview:') && resolve());
    server.on('exit', (code) => reject(new Error(`preview server exited with ${code}`)));
  });
  return server;
}
