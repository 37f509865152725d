/**
 * Fills `{name}` placeholders in copy handed over as a plain template (the admin islands, the slider's labels):
 * fill('Page {page} of {pages}', { page: 2, pages: 5 }) → 'Page 2 of 5'. A name without a value stays as written.
 */
export const fill = (template: string, values: Record<string, string | number>) =>
  template.replace(/\{(\w+)\}/g, (whole, key: string) => (key in values ? String(values[key]) : whole));
