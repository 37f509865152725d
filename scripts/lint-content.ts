/**
 * `npm run lint:content`: spelling (English and German), German typography, contact details, sources, bylines,
 * internal links, alt text and missing German versions in the content (scripts/lib/content-lint.ts;
 * docs/editing.md explains each rule). Exits 1 when anything but a notice is found.
 */
import { fileURLToPath } from 'node:url';
import { formatProblem, lintContent } from './lib/content-lint.ts';

// The project, or the directory given (the unit test lints a fixture).
const root = process.argv[2] ?? fileURLToPath(new URL('..', import.meta.url));
const found = await lintContent(root);
for (const problem of found) console.log(formatProblem(problem));
const problems = found.filter((problem) => !problem.notice);
const notices = found.length - problems.length;
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
if (problems.length > 0) {
  console.log(`\n${plural(problems.length, 'content problem')}; each line names the fix.`);
  process.exit(1);
}
console.log(notices > 0 ? `content: no problems, ${plural(notices, 'notice')}` : 'content: no problems');
