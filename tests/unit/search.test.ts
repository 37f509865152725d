import { describe, expect, test } from 'vitest';
import { divisionLabelKey, searchDivisionsOf, searchTypeOf } from '../../src/lib/search.ts';

describe('searchTypeOf', () => {
  test('files articles, news, divisions, services, references, case studies, initiatives and career', () => {
    expect(searchTypeOf('/blog/closed-systems')).toBe('article');
    expect(searchTypeOf('/news/achema')).toBe('news');
    expect(searchTypeOf('/oil%26gas')).toBe('division');
    expect(searchTypeOf('/our-services')).toBe('service');
    expect(searchTypeOf('/our-references/')).toBe('references');
    expect(searchTypeOf('/our-references/pharma-qc-laboratory')).toBe('reference');
    expect(searchTypeOf('/our-references/filter/pharma')).toBeUndefined();
    expect(searchTypeOf('/initiatives/academy')).toBe('initiative');
    expect(searchTypeOf('/career')).toBe('career');
  });

  test('leaves lists, company pages, legal boilerplate, thanks, admin, search and 404 out', () => {
    for (const path of ['/', '/blog', '/news', '/about-us/our-team', '/privacy-policy', '/cookie-policy'])
      expect(searchTypeOf(path), path).toBeUndefined();
    for (const path of ['/thanks', '/admin', '/admin/login', '/search', '/404'])
      expect(searchTypeOf(path), path).toBeUndefined();
  });
});

describe('German pages', () => {
  test('are filed like their English twins, so each language index has the same types and divisions', () => {
    expect(searchTypeOf('/de/blog/closed-systems')).toBe('article');
    expect(searchTypeOf('/de/news/achema/')).toBe('news');
    expect(searchTypeOf('/de/oil%26gas')).toBe('division');
    expect(searchTypeOf('/de/our-references')).toBe('references');
    expect(searchTypeOf('/de/career')).toBe('career');
    expect(searchDivisionsOf('/de/oil&gas')).toEqual(['oil-gas']);
    expect(searchDivisionsOf('/de/blog/sustainability', ['energy'])).toEqual(['energy']);
  });

  test('leave the same pages out as English does', () => {
    for (const path of ['/de', '/de/', '/de/blog', '/de/search', '/de/thanks', '/de/privacy-policy'])
      expect(searchTypeOf(path), path).toBeUndefined();
    // Only a language the site has is a prefix: `/fr/blog/x` is no page of ours.
    expect(searchTypeOf('/fr/blog/closed-systems')).toBeUndefined();
  });
});

describe('searchDivisionsOf', () => {
  test('gives a division page its own division and the references page all six', () => {
    expect(searchDivisionsOf('/oil&gas')).toEqual(['oil-gas']);
    expect(searchDivisionsOf('/our-references')).toHaveLength(6);
  });

  test('takes an article’s divisions from its tags', () => {
    expect(searchDivisionsOf('/blog/sustainability', ['community', 'energy', 'utilities'])).toEqual([
      'energy',
    ]);
    expect(searchDivisionsOf('/blog/roda', ['community', 'charity'])).toEqual([]);
  });

  test('labels a division with its navigation name', () => {
    expect(divisionLabelKey('oil-gas')).toBe('nav:sectors.oil_gas');
  });
});
