/**
 * Every built page through html-validate with the project's configuration (.htmlvalidate.mjs: the
 * recommended preset and the rules it sets for markup written on purpose). Errors fail; warnings are listed.
 */
import { HtmlValidate, type ConfigData } from 'html-validate';
import type { BuiltSite, Problem } from './site.ts';

export async function checkHtml(site: BuiltSite, config: ConfigData): Promise<Problem[]> {
  const validator = new HtmlValidate(config);
  const problems: Problem[] = [];
  for (const page of site.pages.values()) {
    const report = await validator.validateString(page.html, page.file);
    for (const result of report.results) {
      for (const message of result.messages) {
        if (message.severity < 2) continue;
        problems.push({
          page: page.path,
          message: `${message.line}:${message.column} ${message.ruleId}: ${message.message}`,
        });
      }
    }
  }
  return problems;
}
