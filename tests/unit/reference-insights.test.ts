import { describe, expect, test } from 'vitest';
import { insights, type ReferenceFacts } from '../../src/lib/reference-insights.ts';

const divisions = ['pharma', 'food', 'energy'];
const services = ['basic-design', 'detailed-design', 'permitting'];
const references: ReferenceFacts[] = [
  { division: 'pharma', year: 2019, durationMonths: 12, services: ['basic-design', 'detailed-design'] },
  { division: 'pharma', year: 2021, durationMonths: 7, services: ['detailed-design'] },
  { division: 'pharma', year: 2021, durationMonths: 20, services: ['basic-design', 'permitting'] },
  { division: 'food', year: 2022, durationMonths: 5, services: ['detailed-design'] },
];

describe('insights', () => {
  const result = insights(references, divisions, services);

  test('counts projects per division with their share, keeping empty divisions', () => {
    expect(result.byDivision).toEqual([
      { division: 'pharma', count: 3, share: 0.75 },
      { division: 'food', count: 1, share: 0.25 },
      { division: 'energy', count: 0, share: 0 },
    ]);
  });

  test('counts projects per year, filling years without projects', () => {
    expect(result.byYear).toEqual([
      { year: 2019, count: 1 },
      { year: 2020, count: 0 },
      { year: 2021, count: 2 },
      { year: 2022, count: 1 },
    ]);
  });

  test('averages duration per division to one decimal, leaving out divisions without projects', () => {
    expect(result.averageDuration).toEqual([
      { division: 'pharma', months: 13 },
      { division: 'food', months: 5 },
    ]);
  });

  test('counts how many projects included each service', () => {
    expect(result.services).toEqual([
      { service: 'basic-design', count: 2 },
      { service: 'detailed-design', count: 3 },
      { service: 'permitting', count: 1 },
    ]);
  });

  test('gives empty series for no references', () => {
    expect(insights([], divisions, services).byYear).toEqual([]);
  });
});
