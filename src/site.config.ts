/**
 * Everything that names or reaches the company lives here, so a rename or a new phone number is one edit.
 * Values are fictional until the company supplies its own: reserved domains (.example), a street that exists
 * nowhere and a Belgrade number no subscriber can have (docs/decisions.md, "Content an engineer would sign").
 */
export const site = {
  name: 'Korvel',
  /** The name as visitors read it: document titles, the logo, search results. */
  displayName: 'Korvel Engineering',
  /** The line under the wordmark. */
  logoTag: 'Engineering',
  legalName: 'Korvel Engineering d.o.o.',
  slug: 'korvel',
  url: 'https://www.korvel.example',
  established: 2010,
  /** The name the firm traded under from its founding until it became Korvel; projects from then say so. */
  formerName: 'KPD Inženjering d.o.o.',
  brandSince: 2014,
  euMarketSince: 2013,
  seat: 'Belgrade, Serbia',
  address: {
    street: 'Korvelova 10',
    postalCode: '11070',
    city: 'Belgrade',
    country: 'Serbia',
  },
  registrationNumber: '21784530',
  contactPerson: 'Jelena Marković, Head of business development',
  phone: '+381 11 010 2010',
  email: 'info@korvel.example',
  careersEmail: 'careers@korvel.example',
  social: [
    {
      id: 'instagram',
      kind: 'camera-sharing',
      label: 'Instagram',
      url: 'https://www.instagram.com/korvel.engineering',
    },
    {
      id: 'linkedin',
      kind: 'professional-network',
      label: 'LinkedIn',
      url: 'https://www.linkedin.com/company/korvel-engineering',
    },
    { id: 'tiktok', kind: 'short-video', label: 'TikTok', url: 'https://www.tiktok.com/@korvel.engineering' },
    { id: 'x', kind: 'microblog', label: 'X', url: 'https://x.com/korvel_eng' },
  ],
  /** Languages the dialog lists as coming soon, by flag; English and German are live (src/i18n/lang.ts). */
  upcomingLanguages: ['sr', 'fr', 'it', 'ka'],
} as const;

export type SocialLink = (typeof site.social)[number];

/** The brand initiative lives at `/initiatives/{slug}e` (SPEC's `{product}e`). */
export const brandInitiativeSlug = `${site.slug}e`;
