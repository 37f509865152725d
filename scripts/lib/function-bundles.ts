/**
 * Builds netlify/functions the way a Netlify deploy does: @netlify/config reads netlify.toml (functions
 * directory, `node_bundler`, `included_files`, `external_node_modules`, `ignored_node_modules`, per-function
 * patterns) and @netlify/zip-it-and-ship-it bundles every function with the options @netlify/build passes
 * (`esbuild` becomes `esbuild_zisi`, included files relative to the project root, a manifest.json).
 * The bundle test (tests/api/bundles.test.ts) runs the zips; `npm run preview` runs the unzipped build.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FunctionConfig, FunctionResult } from '@netlify/zip-it-and-ship-it';

const root = fileURLToPath(new URL('../../', import.meta.url));

interface TomlFunctionConfig {
  node_bundler?: string;
  included_files?: string[];
  external_node_modules?: string[];
  ignored_node_modules?: string[];
  schedule?: string;
}

/**
 * @param outDir where the bundles and manifest.json go (emptied of older bundles by zip-it-and-ship-it's names)
 * @param archiveFormat `zip` as deployed; `none` leaves each bundle as a directory, ready to import
 */
export async function buildFunctionBundles(
  outDir: string,
  archiveFormat: 'zip' | 'none' = 'zip',
): Promise<FunctionResult[]> {
  // Loaded here, not above: a preview whose bundles are current never needs them (3 s saved on a busy machine).
  const { resolveConfig } = await import('@netlify/config');
  const { zipFunctions } = await import('@netlify/zip-it-and-ship-it');
  const { config } = await resolveConfig({
    config: `${root}netlify.toml`,
    repositoryRoot: root,
    cwd: root,
    offline: true,
    mode: 'cli',
    context: 'production',
  });
  const functions = (config.functions ?? {}) as Record<string, TomlFunctionConfig>;
  const zisiConfig = Object.fromEntries(
    Object.entries(functions).map(([pattern, fn]): [string, FunctionConfig] => [
      pattern,
      {
        nodeBundler: (fn.node_bundler === 'esbuild'
          ? 'esbuild_zisi'
          : fn.node_bundler) as FunctionConfig['nodeBundler'],
        includedFiles: fn.included_files,
        includedFilesBasePath: root,
        externalNodeModules: fn.external_node_modules,
        ignoredNodeModules: fn.ignored_node_modules,
        schedule: fn.schedule,
        // Netlify passes the Node version the build ran on; netlify.toml asks for 24, as npm run does.
        nodeVersion: process.versions.node,
      },
    ]),
  );
  const functionsDirectory = (config as { functionsDirectory?: string }).functionsDirectory;
  if (!functionsDirectory) throw new Error('netlify.toml names no functions directory');
  return zipFunctions([functionsDirectory], outDir, {
    archiveFormat,
    basePath: root,
    repositoryRoot: root,
    config: zisiConfig,
    manifest: `${outDir}/manifest.json`,
  });
}

const hashOf = async (file: string) => {
  try {
    return createHash('sha256')
      .update(await readFile(file))
      .digest('hex');
  } catch {
    return 'missing';
  }
};

/** Hashes of what the bundles were built from: their source files, netlify.toml and the lockfile. */
async function sourceHashes(files: string[]): Promise<Record<string, string>> {
  const all = [...new Set([...files, `${root}netlify.toml`, `${root}package-lock.json`])].sort();
  return Object.fromEntries(await Promise.all(all.map(async (file) => [file, await hashOf(file)])));
}

/**
 * For `npm run preview`: the bundles as directories in `outDir`, rebuilt only when a file they were built
 * from (as zip-it-and-ship-it reports it), netlify.toml, the lockfile or the list of functions changed.
 * @returns whether it had to build
 */
export async function freshFunctionBundles(outDir: string): Promise<boolean> {
  const stampFile = join(outDir, 'inputs.json');
  const functionsDir = `${root}netlify/functions`;
  const entries = (await readdir(functionsDir)).sort();
  try {
    const stamp = JSON.parse(await readFile(stampFile, 'utf8')) as {
      entries: string[];
      hashes: Record<string, string>;
    };
    const current = await sourceHashes(Object.keys(stamp.hashes));
    if (
      JSON.stringify(stamp.entries) === JSON.stringify(entries) &&
      JSON.stringify(stamp.hashes) === JSON.stringify(current)
    )
      return false;
  } catch {
    // No stamp yet, or an unreadable one: build.
  }
  await rm(outDir, { recursive: true, force: true });
  const results = await buildFunctionBundles(outDir, 'none');
  const inputs = results
    .flatMap((result) => result.inputs ?? [])
    .filter((file) => !file.includes('/node_modules/'));
  await writeFile(stampFile, JSON.stringify({ entries, hashes: await sourceHashes(inputs) }));
  return true;
}
