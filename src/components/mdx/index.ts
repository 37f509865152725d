/**
 * What MDX entries may use without importing it: tables that scroll on small screens, links that stay in the
 * page's language, and the company's e-mail address and phone number from src/site.config.ts, so no entry
 * ever types them.
 */
import PhoneLink from '../PhoneLink.astro';
import Email from './Email.astro';
import Link from './Link.astro';
import ScrollTable from './ScrollTable.astro';

export const mdxComponents = { table: ScrollTable, a: Link, Email, Phone: PhoneLink };
