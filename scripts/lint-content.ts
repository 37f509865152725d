/**
 * `npm run lint:content`: spelling, contact details, sources, bylines, internal links and alt text in the
 * content (scripts/lib/content-lint.ts; docs/editing.md explains each rule). Exits 1 when anything is found.
 */
import { fileURLToPath } from 'node:url';
import { formatProblem, lintContent } from './lib/content-lint.ts';

// The project, or the directory given (the unit test lints a fixture).
const root = process.argv[2] ?? fileURLToPath(new URL('..', import.meta.url));
const problems = await lintContent(root);
for (const problem of problems) console.log(formatProblem(problem));
if (problems.length > 0) {
  console.log(
    `\n${problems.length} content problem${problems.length === 1 ? '' : 's'}; each line names the fix.`,
  );
  process.exit(1);
}
console.log('content: no problems');
