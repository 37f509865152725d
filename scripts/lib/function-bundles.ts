/**
 * Builds netlify/functions the way a Netlify deploy does: @netlify/config reads netlify.toml (functions
 * directory, `node_bundler`, `included_files`, `external_node_modules`, `ignored_node_modules`, per-function
 * patterns) and @netlify/zip-it-and-ship-it bundles every function with the options @netlify/build passes
 * (`esbuild` becomes `esbuild_zisi`, included files relative to the project root, a manifest.json).
 * Built once as zips (the deploy's format) into .netlify/function-zips: the bundle test (tests/bundles) and
 * `npm run preview` both run those zips, unzipped.
 */
import { createHash } from 'node:crypto';
import { copyFile, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
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

/** Where the zips as deployed are kept between runs: the bundle test and the preview both start from them. */
export const FUNCTION_ZIPS = `${root}.netlify/function-zips`;

interface Stamp {
  entries: string[];
  hashes: Record<string, string>;
}

/** The stamp in `dir` when it still matches the function sources, netlify.toml and the lockfile. */
async function currentStamp(dir: string): Promise<Stamp | undefined> {
  const entries = (await readdir(`${root}netlify/functions`)).sort();
  try {
    const stamp = JSON.parse(await readFile(join(dir, 'inputs.json'), 'utf8')) as Stamp;
    const current = await sourceHashes(Object.keys(stamp.hashes));
    if (
      JSON.stringify(stamp.entries) === JSON.stringify(entries) &&
      JSON.stringify(stamp.hashes) === JSON.stringify(current)
    )
      return stamp;
  } catch {
    // No stamp yet, or an unreadable one.
  }
  return undefined;
}

/**
 * The zips a deploy ships, in {@link FUNCTION_ZIPS}, built only when a file they were built from (as
 * zip-it-and-ship-it reports it), netlify.toml, the lockfile or the list of functions changed. `npm test`
 * builds them once (scripts/build-functions.ts) for the bundle test and the preview.
 * @returns the zips by function name and whether they had to be built
 */
export async function freshFunctionZips(): Promise<{
  built: boolean;
  zips: { name: string; path: string }[];
}> {
  let built = false;
  if (!(await currentStamp(FUNCTION_ZIPS))) {
    await rm(FUNCTION_ZIPS, { recursive: true, force: true });
    const results = await buildFunctionBundles(FUNCTION_ZIPS, 'zip');
    const inputs = results
      .flatMap((result) => result.inputs ?? [])
      .filter((file) => !file.includes('/node_modules/'));
    const entries = (await readdir(`${root}netlify/functions`)).sort();
    await writeFile(
      join(FUNCTION_ZIPS, 'inputs.json'),
      JSON.stringify({ entries, hashes: await sourceHashes(inputs) }),
    );
    built = true;
  }
  const manifest = JSON.parse(await readFile(join(FUNCTION_ZIPS, 'manifest.json'), 'utf8')) as {
    functions: { name: string; path: string }[];
  };
  return { built, zips: manifest.functions.map(({ name, path }) => ({ name, path })) };
}

/**
 * Unzips every zip into `outDir/<name>/` beside a copy of the manifest: the layout the function host loads
 * (scripts/lib/function-host.ts).
 */
export async function unzipFunctions(zips: { name: string; path: string }[], outDir: string): Promise<void> {
  const { default: StreamZip } = await import('node-stream-zip');
  await mkdir(outDir, { recursive: true });
  for (const { name, path } of zips) {
    const zip = new StreamZip.async({ file: path });
    await mkdir(join(outDir, name), { recursive: true });
    await zip.extract(null, join(outDir, name));
    await zip.close();
  }
  await copyFile(join(FUNCTION_ZIPS, 'manifest.json'), join(outDir, 'manifest.json'));
}

/**
 * For `npm run preview`: the deploy's zips ({@link freshFunctionZips}) unzipped into `outDir`, again only
 * when they changed, so the preview runs exactly what the bundle test ran.
 * @returns whether the zips had to be built
 */
export async function freshFunctionBundles(outDir: string): Promise<boolean> {
  const { built, zips } = await freshFunctionZips();
  const zipStamp = await readFile(join(FUNCTION_ZIPS, 'inputs.json'), 'utf8');
  const unzipped = await readFile(join(outDir, 'inputs.json'), 'utf8').catch(() => undefined);
  if (unzipped !== zipStamp) {
    await rm(outDir, { recursive: true, force: true });
    await unzipFunctions(zips, outDir);
    await writeFile(join(outDir, 'inputs.json'), zipStamp);
  }
  return built;
}
