/**
 * What MDX entries may use without importing it: tables that scroll on small screens, links that stay in the
 * page's language, the company's e-mail address and phone number from src/site.config.ts, so no entry ever
 * types them, and the comparison table with its rows written in place. An entry needs no `import` or
 * `export`, which the admin's Content tab (its rich-text editor) cannot keep (issue 37).
 */
import PhoneLink from '../PhoneLink.astro';
import ComparisonTable from './ComparisonTable.astro';
import Email from './Email.astro';
import Link from './Link.astro';
import ScrollTable from './ScrollTable.astro';

export const mdxComponents = { table: ScrollTable, a: Link, Email, Phone: PhoneLink, ComparisonTable };
