/**
 * JSON-LD of every built page: each `<script type="application/ld+json">` parses, uses the schema.org
 * context, and each node carries the properties search engines require for its type (Google's structured
 * data guidelines for Organization, Article/NewsArticle, BreadcrumbList and FAQPage; schema.org's for
 * ItemPage). A type without a rule
 * here fails too, so a new kind of structured data comes with its check. Pages may also be required to
 * carry given types (an article page its Article).
 */
import { elements, existsAt, textOf, type BuiltSite, type Problem } from './site.ts';

export interface StructuredDataOptions {
  origin: string;
  /** The @types a page must carry, by its path. */
  expected?: (path: string) => readonly string[];
}

type Node = Record<string, unknown>;
type Rule = (node: Node, at: (url: string) => string | undefined) => string[];

const isObject = (value: unknown): value is Node =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const filled = (value: unknown): value is string => typeof value === 'string' && value.trim().length > 0;
const isDate = (value: unknown) =>
  filled(value) && /^\d{4}-\d{2}-\d{2}/.test(value) && !Number.isNaN(Date.parse(value));
const list = (value: unknown): unknown[] =>
  Array.isArray(value) ? value : value === undefined ? [] : [value];
const typesOf = (node: Node) => list(node['@type']).filter(filled);

/** A problem with an absolute URL, or undefined when it is one (and reaches a built page on our origin). */
function urlProblem(
  name: string,
  value: unknown,
  at: (url: string) => string | undefined,
): string | undefined {
  if (!filled(value)) return `${name} is missing`;
  if (!/^https?:\/\//.test(value)) return `${name} is not an absolute URL: ${value}`;
  const unreachable = at(value);
  return unreachable ? `${name} ${unreachable}` : undefined;
}

const requireText = (node: Node, ...names: string[]) =>
  names.filter((name) => !filled(node[name])).map((name) => `${name} is missing`);

const RULES: Record<string, Rule> = {
  Organization: (node, at) => [
    ...requireText(node, 'name'),
    ...[urlProblem('url', node.url, at)].filter((p) => p !== undefined),
    ...(node.logo === undefined ? [] : [urlProblem('logo', node.logo, at)].filter((p) => p !== undefined)),
  ],
  Article: (node, at) => {
    const problems = requireText(node, 'headline');
    if (filled(node.headline) && node.headline.length > 110) problems.push('headline is over 110 characters');
    if (!isDate(node.datePublished)) problems.push('datePublished is missing or not an ISO 8601 date');
    if (node.dateModified !== undefined && !isDate(node.dateModified))
      problems.push('dateModified is not an ISO 8601 date');
    const authors = list(node.author);
    if (authors.length === 0 || !authors.every((a) => isObject(a) && filled(a.name)))
      problems.push('author is missing or has no name');
    const images = list(node.image);
    if (images.length === 0) problems.push('image is missing');
    for (const image of images) {
      const problem = urlProblem('image', isObject(image) ? image.url : image, at);
      if (problem) problems.push(problem);
    }
    if (!isObject(node.publisher) || !filled(node.publisher.name)) problems.push('publisher.name is missing');
    return problems;
  },
  BreadcrumbList: (node, at) => {
    const items = node.itemListElement;
    if (!Array.isArray(items) || items.length === 0) return ['itemListElement is missing or empty'];
    return items.flatMap((item, index) => {
      const name = `itemListElement[${index}]`;
      if (!isObject(item) || !typesOf(item).includes('ListItem')) return [`${name} is not a ListItem`];
      const problems: string[] = [];
      if (item.position !== index + 1) problems.push(`${name}.position is not ${index + 1}`);
      const target = isObject(item.item) ? item.item : undefined;
      if (!filled(item.name) && !filled(target?.name)) problems.push(`${name}.name is missing`);
      // The last crumb (the page itself) may leave out its URL.
      const url = target ? target['@id'] : item.item;
      if (url !== undefined || index < items.length - 1) {
        const problem = urlProblem(`${name}.item`, url, at);
        if (problem) problems.push(problem);
      }
      return problems;
    });
  },
  FAQPage: (node) => {
    const questions = node.mainEntity;
    if (!Array.isArray(questions) || questions.length === 0) return ['mainEntity is missing or empty'];
    return questions.flatMap((question, index) => {
      const name = `mainEntity[${index}]`;
      if (!isObject(question) || !typesOf(question).includes('Question'))
        return [`${name} is not a Question`];
      const problems = requireText(question, 'name').map((p) => `${name}.${p}`);
      const answer = question.acceptedAnswer;
      if (!isObject(answer) || !typesOf(answer).includes('Answer') || !filled(answer.text))
        problems.push(`${name}.acceptedAnswer is missing an Answer with text`);
      return problems;
    });
  },
};
/** A page about one thing (a case study is about its project): what it is called and where it is. */
RULES.ItemPage = (node, at) => [
  ...requireText(node, 'name', 'description'),
  ...[urlProblem('url', node.url, at)].filter((p) => p !== undefined),
];
RULES.NewsArticle = RULES.Article!;

export function checkStructuredData(site: BuiltSite, options: StructuredDataOptions): Problem[] {
  const origin = new URL(options.origin).origin;
  const at = (url: string) => {
    const parsed = new URL(url);
    if (parsed.origin !== origin) return undefined;
    return existsAt(site, parsed.pathname) ? undefined : `points to ${parsed.pathname}, which is not built`;
  };
  const problems: Problem[] = [];
  for (const page of site.pages.values()) {
    const report = (message: string) => problems.push({ page: page.path, message });
    const found = new Set<string>();
    const scripts = elements(page, (el) => el.name === 'script' && el.attribs.type === 'application/ld+json');
    scripts.forEach((script, index) => {
      const where = `JSON-LD block ${index + 1}`;
      let data: unknown;
      try {
        data = JSON.parse(textOf(script));
      } catch (error) {
        report(`${where} does not parse: ${(error as Error).message}`);
        return;
      }
      for (const root of list(data)) {
        if (!isObject(root)) {
          report(`${where} is not an object`);
          continue;
        }
        const context = String(root['@context'] ?? '');
        if (!/^https?:\/\/schema\.org\/?$/.test(context))
          report(`${where}: @context is not https://schema.org`);
        const nodes = Array.isArray(root['@graph']) ? root['@graph'].filter(isObject) : [root];
        for (const node of nodes) {
          const types = typesOf(node);
          if (types.length === 0) report(`${where}: a node has no @type`);
          for (const type of types) {
            found.add(type);
            const rule = RULES[type];
            if (!rule) {
              report(`${where}: no rule checks @type ${type} (add one in scripts/lib/dist-checks)`);
              continue;
            }
            for (const problem of rule(node, at)) report(`${where} (${type}): ${problem}`);
          }
        }
      }
    });
    for (const type of options.expected?.(page.path) ?? [])
      if (!found.has(type)) report(`carries no ${type} JSON-LD`);
  }
  return problems;
}
