/**
 * An open-loop load generator: requests start at evenly spaced times (`rate` per second) whether or not the
 * earlier ones have answered, over a pool of keep-alive connections, and each latency runs from the request's
 * scheduled start to the end of its answer, so time spent waiting for a free connection counts too (no
 * coordinated omission).
 *
 * Why not autocannon's `overallRate`: it gives each connection its share of the rate per second and lets it
 * send that share back to back as each second starts, so 25 connections at 200/s fire 200 requests in one
 * burst and then idle for most of the second; and its correction for coordinated omission adds synthetic
 * samples at a 1 ms interval, which pulls the percentiles down. Neither measures a steady rate.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { Pool } from 'undici';

export interface OpenLoopRequest {
  path: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
}

export interface OpenLoopOptions {
  /** `http://127.0.0.1:port`. */
  base: string;
  /** Requests started per second. */
  rate: number;
  /** Seconds of starting requests; the run then waits for the last answers. */
  duration: number;
  /** Keep-alive connections; a request that finds none free waits, and the wait counts. */
  connections: number;
  /** The next request, asked for at its scheduled start. */
  next: () => OpenLoopRequest;
  /** Every answer's status and body. */
  onResponse?: (status: number, body: string) => void;
}

export interface OpenLoopResult {
  /** Requests answered (with any status). */
  requests: number;
  /** Answers per second, from the first scheduled start to the last answer. */
  throughput: number;
  /** Milliseconds from scheduled start to the answer's end, over the 2xx answers. */
  p50: number;
  p99: number;
  /** Non-2xx answers and failed requests. */
  errors: number;
}

/** The `fraction` percentile of ascending `sorted` (nearest rank); 0 for no values. */
export function percentile(sorted: readonly number[], fraction: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(sorted.length * fraction) - 1))]!;
}

export async function openLoop(options: OpenLoopOptions): Promise<OpenLoopResult> {
  const pool = new Pool(options.base, { connections: options.connections, headersTimeout: 30_000 });
  const interval = 1000 / options.rate;
  const total = Math.round(options.rate * options.duration);
  const latencies: number[] = [];
  let answered = 0;
  let errors = 0;
  let lastAnswer = 0;

  async function send(request: OpenLoopRequest, scheduled: number): Promise<void> {
    try {
      const response = await pool.request({
        path: request.path,
        method: request.method ?? 'GET',
        headers: request.headers,
        body: request.body,
      });
      const body = await response.body.text();
      lastAnswer = performance.now();
      answered += 1;
      options.onResponse?.(response.statusCode, body);
      if (response.statusCode >= 200 && response.statusCode < 300) latencies.push(lastAnswer - scheduled);
      else errors += 1;
    } catch {
      errors += 1;
    }
  }

  const start = performance.now();
  const inFlight: Promise<void>[] = [];
  for (let n = 0; n < total; n += 1) {
    const scheduled = start + n * interval;
    const wait = scheduled - performance.now();
    if (wait >= 1) await sleep(wait);
    inFlight.push(send(options.next(), scheduled));
  }
  await Promise.all(inFlight);
  await pool.close();
  latencies.sort((a, b) => a - b);
  return {
    requests: answered,
    throughput: answered / ((Math.max(lastAnswer, start + options.duration * 1000) - start) / 1000),
    p50: Math.round(percentile(latencies, 0.5)),
    p99: Math.round(percentile(latencies, 0.99)),
    errors,
  };
}
