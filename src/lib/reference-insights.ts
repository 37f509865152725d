/**
 * The four insight series of /our-references, computed from the reference entries at build time, so a new
 * entry changes the charts with no other edit.
 */

export interface ReferenceFacts {
  division: string;
  year: number;
  durationMonths: number;
  services: readonly string[];
}

export interface Insights {
  /** Projects per division, in the given division order, with their share of all projects (0–1). */
  byDivision: { division: string; count: number; share: number }[];
  /** Projects per year from the first to the last year, years without projects included as 0. */
  byYear: { year: number; count: number }[];
  /** Mean duration in months per division, one decimal; divisions without projects are left out. */
  averageDuration: { division: string; months: number }[];
  /** How many projects included each service, in the given service order. */
  services: { service: string; count: number }[];
}

const oneDecimal = (value: number) => Math.round(value * 10) / 10;

/**
 * @example insights(refs, ['pharma', 'food'], ['basic-design']).byDivision[0] // { division: 'pharma', count: 8, share: 0.27 }
 */
export function insights(
  references: readonly ReferenceFacts[],
  divisions: readonly string[],
  services: readonly string[],
): Insights {
  const total = references.length;
  const inDivision = (division: string) => references.filter((r) => r.division === division);

  const years = references.map((r) => r.year);
  const first = Math.min(...years);
  const last = Math.max(...years);
  const byYear =
    total === 0
      ? []
      : Array.from({ length: last - first + 1 }, (_, i) => ({
          year: first + i,
          count: references.filter((r) => r.year === first + i).length,
        }));

  return {
    byDivision: divisions.map((division) => {
      const count = inDivision(division).length;
      return { division, count, share: total ? count / total : 0 };
    }),
    byYear,
    averageDuration: divisions
      .map((division) => ({ division, projects: inDivision(division) }))
      .filter(({ projects }) => projects.length > 0)
      .map(({ division, projects }) => ({
        division,
        months: oneDecimal(projects.reduce((sum, r) => sum + r.durationMonths, 0) / projects.length),
      })),
    services: services.map((service) => ({
      service,
      count: references.filter((r) => r.services.includes(service)).length,
    })),
  };
}
