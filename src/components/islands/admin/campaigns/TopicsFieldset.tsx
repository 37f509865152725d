import { NEWSLETTER_TOPICS, type NewsletterTopic } from '../../../../content/constants.ts';
import type { CampaignsCopy } from '../copy.ts';

interface Props {
  chosen: readonly NewsletterTopic[];
  copy: CampaignsCopy;
  error?: string;
  onChange: (chosen: NewsletterTopic[]) => void;
}

/**
 * The topics an issue is for (issue 36): one checkbox per topic, kept in NEWSLETTER_TOPICS order. None ticked
 * sends the issue to every reader of its language; the send dialog then counts who it reaches.
 */
export function TopicsFieldset({ chosen, copy, error, onChange }: Props) {
  const toggle = (topic: NewsletterTopic) =>
    onChange(NEWSLETTER_TOPICS.filter((t) => (t === topic ? !chosen.includes(t) : chosen.includes(t))));
  return (
    <fieldset
      id="campaign-topics"
      className="admin-campaign-articles"
      aria-describedby={`campaign-topics-hint${error ? ' campaign-topics-error' : ''}`}
      aria-invalid={error ? true : undefined}
    >
      <legend className="admin-label">{copy.topics}</legend>
      <p id="campaign-topics-hint" className="admin-hint">
        {copy.topics_hint}
      </p>
      {error && (
        <p id="campaign-topics-error" className="admin-field-error">
          {error}
        </p>
      )}
      <ul className="admin-campaign-topics">
        {NEWSLETTER_TOPICS.map((topic) => (
          <li key={topic}>
            <label className="admin-check">
              <input
                type="checkbox"
                name="topics"
                value={topic}
                checked={chosen.includes(topic)}
                onChange={() => toggle(topic)}
              />
              <span>{copy[`topic_${topic}`]}</span>
            </label>
          </li>
        ))}
      </ul>
    </fieldset>
  );
}
