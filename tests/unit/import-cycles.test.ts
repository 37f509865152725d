/**
 * The import-circle checks of `npm run lint`, each with the project's own configuration on planted files in a
 * temporary directory: import-x/no-cycle (eslint.config.js) through ESLint's API must fail on a circle between
 * two TypeScript modules, three, and one through an Astro component; dependency-cruiser
 * (.dependency-cruiser.cjs) must fail on a circle made of type imports only, which import-x skips. The same
 * files without the back edge pass both.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ESLint } from 'eslint';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

const config = resolve('eslint.config.js');
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'korvel-cycles-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Writes `files` into a fresh subdirectory and lints them as `npm run lint` would. */
async function lint(name: string, files: Record<string, string>) {
  const eslint = new ESLint({ cwd: dir, overrideConfigFile: config });
  for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, `${name}-${file}`), text);
  const results = await eslint.lintFiles(Object.keys(files).map((file) => `${name}-${file}`));
  return results.flatMap((result) =>
    result.messages.map((message) => ({ file: result.filePath.slice(dir.length + 1), rule: message.ruleId })),
  );
}

// The first lint loads the whole ESLint configuration (TypeScript parser, Astro plugin): seconds on a busy machine.
describe('npm run lint and import circles', { timeout: 60_000 }, () => {
  test('a handler and a repository that import each other fail', async () => {
    const problems = await lint('pair', {
      'handler.ts': `import { findRow } from './pair-repository.ts';\nexport const handle = () => findRow();\n`,
      'repository.ts': `import { handle } from './pair-handler.ts';\nexport const findRow = () => 1;\nexport const again = () => handle();\n`,
    });
    expect(problems).toEqual([
      { file: 'pair-handler.ts', rule: 'import-x/no-cycle' },
      { file: 'pair-repository.ts', rule: 'import-x/no-cycle' },
    ]);
  });

  test('a circle through three modules is found from each of them', async () => {
    const problems = await lint('ring', {
      'a.ts': `import { b } from './ring-b.ts';\nexport const a = () => b();\n`,
      'b.ts': `import { c } from './ring-c.ts';\nexport const b = () => c();\n`,
      'c.ts': `import { a } from './ring-a.ts';\nexport const c = () => a;\n`,
    });
    expect(problems.map((problem) => problem.rule)).toEqual(Array(3).fill('import-x/no-cycle'));
  });

  test('a circle through an Astro component fails', async () => {
    const problems = await lint('astro', {
      'Card.astro': `---\nimport { title } from './astro-title.ts';\n---\n<p>{title()}</p>\n`,
      'title.ts': `import Card from './astro-Card.astro';\nexport const title = () => String(Card);\n`,
    });
    expect(problems).toContainEqual({ file: 'astro-Card.astro', rule: 'import-x/no-cycle' });
    expect(problems).toContainEqual({ file: 'astro-title.ts', rule: 'import-x/no-cycle' });
  });

  test('the same modules flowing one way pass', async () => {
    const problems = await lint('oneway', {
      'handler.ts': `import { findRow } from './oneway-repository.ts';\nexport const handle = () => findRow();\n`,
      'repository.ts': `export const findRow = () => 1;\n`,
    });
    expect(problems).toEqual([]);
  });
});

/** Writes `files` into a fresh subdirectory and runs dependency-cruiser on it as `npm run lint` does. */
function cruise(name: string, files: Record<string, string>) {
  const sub = join(dir, name);
  mkdirSync(sub);
  for (const [file, text] of Object.entries(files)) writeFileSync(join(sub, file), text);
  const run = spawnSync('npx', ['depcruise', sub, '--config', resolve('.dependency-cruiser.cjs')], {
    encoding: 'utf8',
  });
  return { status: run.status, output: run.stdout + run.stderr };
}

describe('npm run lint and circles of types', { timeout: 60_000 }, () => {
  test('a component that takes its props type from its parent fails', () => {
    const { status, output } = cruise('types', {
      'Tab.tsx': `import { View } from './View.tsx';\nexport interface TabProps { token: string }\nexport const Tab = (props: TabProps) => View(props);\n`,
      'View.tsx': `import type { TabProps } from './Tab.tsx';\nexport const View = (props: TabProps) => props.token;\n`,
    });
    expect(status).not.toBe(0);
    expect(output).toMatch(/no-circular: .*Tab\.tsx/s);
  });

  test('the same props in a module of their own pass', () => {
    const { status, output } = cruise('shared', {
      'types.ts': `export interface TabProps { token: string }\n`,
      'Tab.tsx': `import type { TabProps } from './types.ts';\nimport { View } from './View.tsx';\nexport const Tab = (props: TabProps) => View(props);\n`,
      'View.tsx': `import type { TabProps } from './types.ts';\nexport const View = (props: TabProps) => props.token;\n`,
    });
    expect(output).toContain('no dependency violations');
    expect(status).toBe(0);
  });
});
