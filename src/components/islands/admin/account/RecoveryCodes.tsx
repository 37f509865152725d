import { useEffect, useId, useRef } from 'react';
import { copyText } from '../clipboard.ts';
import type { AccountCopy } from '../copy.ts';
import { fill } from '../format.ts';

interface Props {
  codes: string[];
  email: string;
  copy: AccountCopy;
  notify: (text: string, tone?: 'success' | 'error') => void;
  onDone: () => void;
  /** The label of the button that closes the codes, e.g. "Continue to the admin" after enrolment. */
  doneLabel: string;
}

/** The recovery codes as a downloadable text file, one a line under a title naming the account. */
export function recoveryFile(codes: readonly string[], title: string): string {
  return `${title}\n\n${codes.join('\n')}\n`;
}

/**
 * Ten fresh recovery codes, shown once: the server keeps only their hashes. Copy puts them on the clipboard,
 * Download saves a text file; focus moves to the heading so a screen reader starts here.
 */
export function RecoveryCodes({ codes, email, copy, notify, onDone, doneLabel }: Props) {
  const id = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);

  const download = () => {
    const text = recoveryFile(codes, fill(copy.codes_file_title, { email }));
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = 'korvel-admin-recovery-codes.txt';
    link.click();
    URL.revokeObjectURL(url);
  };

  const copyAll = async () => {
    try {
      await copyText(codes.join('\n'));
      notify(copy.codes_copied);
    } catch {
      notify(copy.codes_copy_failed, 'error');
    }
  };

  return (
    <section className="admin-card admin-codes" aria-labelledby={`${id}-title`}>
      <h2 ref={heading} id={`${id}-title`} tabIndex={-1} className="admin-card__title">
        {copy.codes_heading}
      </h2>
      <p className="admin-card__intro">{copy.codes_intro}</p>
      <ol className="admin-codes__list" aria-label={copy.codes_label}>
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ol>
      <div className="admin-card__actions">
        <button type="button" className="admin-button" onClick={copyAll}>
          {copy.codes_copy}
        </button>
        <button type="button" className="admin-button" onClick={download}>
          {copy.codes_download}
        </button>
        <button type="button" className="admin-button admin-button--primary" onClick={onDone}>
          {doneLabel}
        </button>
      </div>
    </section>
  );
}
