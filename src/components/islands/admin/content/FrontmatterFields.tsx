/**
 * Every front matter field of an article or news item as a form field. What a field may hold is the
 * collection's own schema (src/lib/article-schema.ts, the one the build validates with), checked on the
 * server at every save: its messages come back per field and show beside the field. The browser carries no
 * copy of the schema — the full zod build would grow the script every page shares with the public forms.
 */
import { useId, type ReactNode } from 'react';
import { DIVISIONS } from '../../../../content/constants.ts';
import type { ContentCopy } from '../copy.ts';
import type { AuthorOption, Frontmatter } from './content-api.ts';

interface Image {
  src: string;
  alt: string;
  caption?: string;
}
interface Citation {
  title: string;
  publisher: string;
  year: number;
  url: string;
}

interface Props {
  data: Frontmatter;
  errors: Record<string, string>;
  authors: readonly AuthorOption[];
  copy: ContentCopy;
  /** Sets a field; `undefined` removes it from the front matter. */
  onChange: (key: string, value: unknown) => void;
  /** Shown beside the images: the upload control. */
  imageTools?: ReactNode;
}

const text = (value: unknown) => (typeof value === 'string' ? value : '');
const list = <T,>(value: unknown): T[] => (Array.isArray(value) ? (value as T[]) : []);

/** A labelled control with its hint and its error, wired by id for screen readers. */
export function Field(props: {
  id: string;
  label: string;
  hint?: string;
  error?: string;
  children: (aria: { id: string; 'aria-invalid'?: true; 'aria-describedby'?: string }) => ReactNode;
}) {
  const described = [props.hint && `${props.id}-hint`, props.error && `${props.id}-error`]
    .filter(Boolean)
    .join(' ');
  return (
    <div className="admin-field">
      <label htmlFor={props.id} className="admin-label">
        {props.label}
      </label>
      {props.hint && (
        <p id={`${props.id}-hint`} className="admin-hint">
          {props.hint}
        </p>
      )}
      {props.children({
        id: props.id,
        ...(props.error && { 'aria-invalid': true as const }),
        ...(described && { 'aria-describedby': described }),
      })}
      {props.error && (
        <p id={`${props.id}-error`} className="admin-field-error">
          {props.error}
        </p>
      )}
    </div>
  );
}

export function FrontmatterFields({ data, errors, authors, copy, onChange, imageTools }: Props) {
  const id = useId();
  const images = list<Image>(data.images);
  const references = list<Citation>(data.references);
  const divisions = list<string>(data.divisions);
  const setImage = (index: number, change: Partial<Image>) =>
    onChange(
      'images',
      images.map((image, i) => (i === index ? { ...image, ...change } : image)),
    );
  const setReference = (index: number, change: Partial<Citation>) =>
    onChange(
      'references',
      references.map((reference, i) => (i === index ? { ...reference, ...change } : reference)),
    );
  const moveImage = (index: number, by: -1 | 1) => {
    const next = [...images];
    const [moved] = next.splice(index, 1);
    next.splice(index + by, 0, moved!);
    onChange('images', next);
  };

  return (
    <div className="admin-content__fields">
      <Field id={`${id}-title`} label={copy.field_title} hint={copy.field_title_hint} error={errors.title}>
        {(aria) => (
          <input
            {...aria}
            className="admin-input"
            value={text(data.title)}
            onChange={(event) => onChange('title', event.target.value)}
          />
        )}
      </Field>
      <Field
        id={`${id}-summary`}
        label={copy.field_summary}
        hint={copy.field_summary_hint}
        error={errors.summary}
      >
        {(aria) => (
          <textarea
            {...aria}
            className="admin-input admin-textarea"
            rows={3}
            value={text(data.summary)}
            onChange={(event) => onChange('summary', event.target.value)}
          />
        )}
      </Field>
      <div className="admin-content__row">
        <Field id={`${id}-date`} label={copy.field_date} error={errors.date}>
          {(aria) => (
            <input
              {...aria}
              type="date"
              className="admin-input"
              value={text(data.date)}
              onChange={(event) => onChange('date', event.target.value)}
            />
          )}
        </Field>
        <Field
          id={`${id}-updated`}
          label={copy.field_updated}
          hint={copy.field_updated_hint}
          error={errors.updated}
        >
          {(aria) => (
            <input
              {...aria}
              type="date"
              className="admin-input"
              value={text(data.updated)}
              onChange={(event) => onChange('updated', event.target.value || undefined)}
            />
          )}
        </Field>
      </div>
      <div className="admin-content__row">
        <Field id={`${id}-author`} label={copy.field_author} error={errors.author}>
          {(aria) => (
            <select
              {...aria}
              className="admin-select admin-content__select"
              value={text(data.author)}
              onChange={(event) => onChange('author', event.target.value)}
            >
              <option value="">{copy.field_author_choose}</option>
              {authors.map((author) => (
                <option key={author.id} value={author.id}>
                  {author.name}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field
          id={`${id}-discipline`}
          label={copy.field_discipline}
          hint={copy.field_discipline_hint}
          error={errors.discipline}
        >
          {(aria) => (
            <input
              {...aria}
              className="admin-input"
              value={text(data.discipline)}
              onChange={(event) => onChange('discipline', event.target.value)}
            />
          )}
        </Field>
      </div>
      <fieldset className="admin-choice admin-content__divisions" aria-describedby={`${id}-divisions-hint`}>
        <legend className="admin-label">{copy.field_divisions}</legend>
        <p id={`${id}-divisions-hint`} className="admin-hint">
          {copy.field_divisions_hint}
        </p>
        {DIVISIONS.map((division) => (
          <label key={division} className="admin-choice__option">
            <input
              type="checkbox"
              checked={divisions.includes(division)}
              onChange={(event) =>
                onChange(
                  'divisions',
                  event.target.checked
                    ? DIVISIONS.filter((d) => d === division || divisions.includes(d))
                    : divisions.filter((d) => d !== division),
                )
              }
            />{' '}
            {copy[`division_${division.replace('-', '_')}` as keyof ContentCopy]}
          </label>
        ))}
        {errors.divisions && <p className="admin-field-error">{errors.divisions}</p>}
      </fieldset>
      <Field id={`${id}-tags`} label={copy.field_tags} hint={copy.field_tags_hint} error={tagError(errors)}>
        {(aria) => (
          <input
            {...aria}
            className="admin-input"
            value={list<string>(data.tags).join(', ')}
            onChange={(event) =>
              onChange(
                'tags',
                event.target.value
                  .split(',')
                  .map((tag) => tag.trim())
                  .filter((tag, i, all) => tag !== '' || i === all.length - 1),
              )
            }
            onBlur={() => onChange('tags', list<string>(data.tags).filter(Boolean))}
          />
        )}
      </Field>

      <fieldset className="admin-content__group">
        <legend className="admin-label">{copy.field_images}</legend>
        <p className="admin-hint">{copy.field_images_hint}</p>
        {errors.images && <p className="admin-field-error">{errors.images}</p>}
        <ol className="admin-content__items">
          {images.map((image, index) => (
            <li key={`${image.src}-${index}`} className="admin-content__item">
              <p className="admin-content__path">
                <code>{image.src.split('/').pop()}</code>
              </p>
              {errors[`images.${index}.src`] && (
                <p className="admin-field-error">{errors[`images.${index}.src`]}</p>
              )}
              <Field
                id={`${id}-image-${index}`}
                label={copy.field_alt}
                hint={copy.field_alt_hint}
                error={errors[`images.${index}.alt`]}
              >
                {(aria) => (
                  <input
                    {...aria}
                    className="admin-input"
                    value={image.alt}
                    onChange={(event) => setImage(index, { alt: event.target.value })}
                  />
                )}
              </Field>
              <Field
                id={`${id}-caption-${index}`}
                label={copy.field_caption}
                hint={copy.field_caption_hint}
                error={errors[`images.${index}.caption`]}
              >
                {(aria) => (
                  <input
                    {...aria}
                    className="admin-input"
                    value={image.caption ?? ''}
                    // An empty caption is no caption: the key leaves the front matter.
                    onChange={(event) => setImage(index, { caption: event.target.value || undefined })}
                  />
                )}
              </Field>
              <div className="admin-content__item-actions">
                <button
                  type="button"
                  className="admin-button admin-button--small"
                  disabled={index === 0}
                  onClick={() => moveImage(index, -1)}
                >
                  {copy.move_up}
                </button>
                <button
                  type="button"
                  className="admin-button admin-button--small"
                  disabled={index === images.length - 1}
                  onClick={() => moveImage(index, 1)}
                >
                  {copy.move_down}
                </button>
                <button
                  type="button"
                  className="admin-button admin-button--small admin-button--danger-quiet"
                  onClick={() =>
                    onChange(
                      'images',
                      images.filter((_, i) => i !== index),
                    )
                  }
                >
                  {copy.remove}
                </button>
              </div>
            </li>
          ))}
        </ol>
        {imageTools}
      </fieldset>

      <fieldset className="admin-content__group">
        <legend className="admin-label">{copy.field_references}</legend>
        <p className="admin-hint">{copy.field_references_hint}</p>
        <ol className="admin-content__items">
          {references.map((reference, index) => (
            <li key={index} className="admin-content__item">
              {(['title', 'publisher', 'year', 'url'] as const).map((part) => (
                <Field
                  key={part}
                  id={`${id}-reference-${index}-${part}`}
                  label={copy[`field_reference_${part}`]}
                  error={errors[`references.${index}.${part}`]}
                >
                  {(aria) => (
                    <input
                      {...aria}
                      className="admin-input"
                      type={part === 'year' ? 'number' : part === 'url' ? 'url' : 'text'}
                      value={part === 'year' ? String(reference.year ?? '') : (reference[part] ?? '')}
                      onChange={(event) =>
                        setReference(index, {
                          [part]: part === 'year' ? Number(event.target.value) : event.target.value,
                        })
                      }
                    />
                  )}
                </Field>
              ))}
              <button
                type="button"
                className="admin-button admin-button--small admin-button--danger-quiet"
                onClick={() =>
                  onChange(
                    'references',
                    references.filter((_, i) => i !== index),
                  )
                }
              >
                {copy.remove}
              </button>
            </li>
          ))}
        </ol>
        <button
          type="button"
          className="admin-button admin-button--small"
          onClick={() =>
            onChange('references', [
              ...references,
              { title: '', publisher: '', year: new Date().getFullYear(), url: 'https://' },
            ])
          }
        >
          {copy.add_reference}
        </button>
      </fieldset>

      <label className="admin-choice__option admin-content__draft">
        <input
          type="checkbox"
          checked={data.draft === true}
          onChange={(event) =>
            onChange('draft', event.target.checked ? true : data.draft === undefined ? undefined : false)
          }
        />{' '}
        {copy.field_draft}
      </label>
    </div>
  );
}

/** A tag's own message (`tags.1`) or the list's. */
const tagError = (errors: Record<string, string>) =>
  errors.tags ?? Object.entries(errors).find(([key]) => key.startsWith('tags.'))?.[1];
