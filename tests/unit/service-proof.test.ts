/** src/content/services.yaml: every service has a lead on the team page and projects and articles that exist and fit. */
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { SERVICES } from '../../src/content/constants.ts';

const proof = parse(readFileSync('src/content/services.yaml', 'utf8')) as Record<
  string,
  { lead: string; references: string[]; articles: string[] }
>;
const reference = (id: string) =>
  parse(readFileSync(`src/content/references/${id}.yaml`, 'utf8')) as { services: string[] };

describe('src/content/services.yaml', () => {
  test('covers exactly the services of SERVICES', () => {
    expect(Object.keys(proof).sort()).toEqual([...SERVICES].sort());
  });

  for (const service of SERVICES) {
    test(`${service}: a lead on the team page, two or three projects that used it, two or three articles`, () => {
      const { lead, references, articles } = proof[service]!;
      expect(existsSync(`src/content/team/${lead}.yaml`), lead).toBe(true);
      expect(references.length).toBeGreaterThanOrEqual(2);
      expect(references.length).toBeLessThanOrEqual(3);
      for (const id of references) expect(reference(id).services, id).toContain(service);
      expect(articles.length).toBeGreaterThanOrEqual(2);
      expect(articles.length).toBeLessThanOrEqual(3);
      for (const id of articles) expect(existsSync(`src/content/blog/${id}.mdx`), id).toBe(true);
    });
  }

  test('each service has its own lead', () => {
    const leads = Object.values(proof).map((entry) => entry.lead);
    expect(new Set(leads).size).toBe(leads.length);
  });
});
