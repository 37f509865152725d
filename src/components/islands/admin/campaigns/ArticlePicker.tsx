import { CAMPAIGN_LIMITS } from '../../../../lib/campaign-schema.ts';
import type { CampaignsCopy } from '../copy.ts';
import { calendarDate } from '../format.ts';
import type { ArticleOption } from './types.ts';

interface Props {
  options: readonly ArticleOption[];
  chosen: readonly string[];
  copy: CampaignsCopy;
  error?: string;
  onChange: (chosen: string[]) => void;
}

/** Checkboxes for the article cards, newest first; the order of choosing is the order in the mail. */
export function ArticlePicker({ options, chosen, copy, error, onChange }: Props) {
  const full = chosen.length >= CAMPAIGN_LIMITS.articles;
  return (
    <fieldset
      className="admin-campaign-articles"
      aria-describedby="campaign-articles-hint campaign-articles-error"
      aria-invalid={error ? true : undefined}
    >
      <legend className="admin-label">{copy.articles}</legend>
      <p id="campaign-articles-hint" className="admin-hint">
        {full ? copy.articles_full : copy.articles_hint}
      </p>
      {error && (
        <p id="campaign-articles-error" className="admin-field-error">
          {error}
        </p>
      )}
      <ul className="admin-campaign-articles__list">
        {options.map((option) => {
          const checked = chosen.includes(option.id);
          return (
            <li key={option.id}>
              <label className="admin-check">
                <input
                  type="checkbox"
                  name="articles"
                  value={option.id}
                  checked={checked}
                  disabled={!checked && full}
                  onChange={() =>
                    onChange(checked ? chosen.filter((id) => id !== option.id) : [...chosen, option.id])
                  }
                />
                <span>
                  {option.title}{' '}
                  <span className="admin-muted">
                    ({option.id.startsWith('news/') ? copy.kind_news : copy.kind_blog},{' '}
                    <time dateTime={option.date}>{calendarDate(option.date)}</time>)
                  </span>
                </span>
              </label>
            </li>
          );
        })}
      </ul>
    </fieldset>
  );
}
