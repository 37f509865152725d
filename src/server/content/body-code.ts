/**
 * The code an article's text may hold when it is saved from the Content tab: none that runs.
 *
 * MDX is a program. An `import` or `export` line, a `{…}` expression in the text or a `{…}` attribute of a
 * component is JavaScript that runs when the site is built, and a saved piece's branch is built as a deploy
 * preview with the build's environment before anyone has reviewed it: an editor's account must not be a way to
 * run code there. What the articles use stays: a `{…}` holding only a comment (the German draft's translation
 * note), and attributes that are data written as a literal, such as ComparisonTable's `rows={[{ area: '…' }]}`.
 * Developers who need more write it through git, where a review sees it.
 */
import type { Expression, Program } from 'estree';
import type { Nodes, Root } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { mdxFromMarkdown } from 'mdast-util-mdx';
import { mdxjs } from 'micromark-extension-mdxjs';
import { visit } from 'unist-util-visit';

/** Whether `node` is a value written out in full: strings, numbers, booleans, null, arrays and plain objects. */
function isLiteralData(node: Expression): boolean {
  switch (node.type) {
    case 'Literal':
      return !('regex' in node);
    case 'TemplateLiteral':
      return node.expressions.length === 0;
    case 'UnaryExpression':
      return (node.operator === '-' || node.operator === '+') && node.argument.type === 'Literal';
    case 'ArrayExpression':
      return node.elements.every(
        (element) => element !== null && element.type !== 'SpreadElement' && isLiteralData(element),
      );
    case 'ObjectExpression':
      return node.properties.every(
        (property) =>
          property.type === 'Property' &&
          property.kind === 'init' &&
          !property.computed &&
          !property.method &&
          !property.shorthand &&
          (property.key.type === 'Identifier' || property.key.type === 'Literal') &&
          isLiteralData(property.value as Expression),
      );
    default:
      return false;
  }
}

/**
 * An expression runs nothing when its program (estree, which the parser keeps in the node's data) holds only
 * comments, or one value written out in full.
 */
function runsNothing(data: unknown): boolean {
  const program = (data as { estree?: Program | null } | undefined)?.estree;
  if (!program || program.body.length === 0) return true;
  const [statement, ...rest] = program.body;
  return (
    rest.length === 0 && statement?.type === 'ExpressionStatement' && isLiteralData(statement.expression)
  );
}

/** What `node` runs at build time, described for the writer, or undefined when it runs nothing. */
function codeIn(node: Nodes): string | undefined {
  switch (node.type) {
    case 'mdxjsEsm':
      return 'an import or export line';
    case 'mdxFlowExpression':
    case 'mdxTextExpression':
      return runsNothing(node.data) ? undefined : 'a {…} expression';
    case 'mdxJsxFlowElement':
    case 'mdxJsxTextElement':
      for (const attribute of node.attributes) {
        if (attribute.type === 'mdxJsxExpressionAttribute') return `a {…} attribute of <${node.name ?? ''}>`;
        const value = attribute.value;
        if (value && typeof value === 'object' && !runsNothing(value.data))
          return `the ${attribute.name} attribute of <${node.name ?? ''}>`;
      }
      return undefined;
    default:
      return undefined;
  }
}

/**
 * Why `body` (MDX) cannot be saved from the Content tab, naming the line, or undefined when it can: the first
 * place that would run code when the site is built, or the parser's reason when it is not MDX at all (what this
 * parser cannot read, this check cannot clear; the build's MDX compiler uses the same parser and would fail too).
 */
export function codeInBody(body: string): string | undefined {
  let tree: Root;
  try {
    tree = fromMarkdown(body, { extensions: [mdxjs()], mdastExtensions: [mdxFromMarkdown()] });
  } catch (error) {
    const { line, reason } = error as { line?: number; reason?: string };
    return `Line ${line ?? 1} is not valid MDX: ${reason ?? String(error)}`;
  }
  let found: string | undefined;
  visit(tree, (node) => {
    const what = codeIn(node as Nodes);
    if (what === undefined) return undefined;
    found =
      `Line ${node.position?.start.line ?? 1} holds ${what}, code that would run when the site is built. ` +
      'Remove it; a developer adds such code through git.';
    return false;
  });
  return found;
}
