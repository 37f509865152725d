/**
 * Which admin tabs each role sees, in the order they show. The server checks every call by role; this list
 * only spares a person tabs whose calls would answer 403. A new tab is one line here, plus its component in
 * AdminPanel's registry.
 */
import type { Role } from './auth-api.ts';

export const TAB_ROLES = [
  { name: 'subscribers', roles: ['owner', 'editor'] },
  { name: 'inquiries', roles: ['owner', 'sales'] },
  { name: 'campaigns', roles: ['owner', 'editor'] },
  { name: 'overview', roles: ['owner', 'editor'] },
  { name: 'team', roles: ['owner'] },
  { name: 'activity', roles: ['owner'] },
  { name: 'suppressions', roles: ['owner', 'editor'] },
  { name: 'content', roles: ['owner', 'editor'] },
] as const satisfies readonly { name: string; roles: readonly Role[] }[];

export type TabName = (typeof TAB_ROLES)[number]['name'];

/** The tabs `role` sees: tabsFor('sales') → ['inquiries']. */
export function tabsFor(role: Role): TabName[] {
  return TAB_ROLES.filter((tab) => (tab.roles as readonly Role[]).includes(role)).map((tab) => tab.name);
}
