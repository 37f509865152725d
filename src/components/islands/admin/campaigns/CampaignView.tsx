import { useCallback, useEffect, useRef, useState } from 'react';
import type { CampaignInput } from '../../../../lib/campaign-schema.ts';
import { fetchCampaign, isAbort, isAuthError, type CampaignDetail } from '../api.ts';
import { LoadFailed } from '../ListFallback.tsx';
import { CampaignDelivery } from './CampaignDelivery.tsx';
import { CampaignEditor } from './CampaignEditor.tsx';
import type { CampaignsProps } from './types.ts';

interface Props extends CampaignsProps {
  /** Null: a new draft, not saved yet. */
  id: number | null;
  /** Unsaved content from an ended session, to edit in place of the stored text. */
  restored?: CampaignInput;
  onClose: () => void;
  /** Opens another issue in place of this one (a duplicate just made). */
  onOpen: (id: number) => void;
}

/** One issue: its editor while it is a draft, its delivery once it is sent. Loads it and keeps it fresh. */
export function CampaignView(props: Props) {
  const { token, copy, onUnauthorized, onClose } = props;
  const [id, setId] = useState(props.id);
  const [detail, setDetail] = useState<CampaignDetail | null>(null);
  const [failed, setFailed] = useState(false);
  const [version, setVersion] = useState(0);
  const heading = useRef<HTMLHeadingElement>(null);

  const refresh = useCallback(() => setVersion((n) => n + 1), []);

  useEffect(() => {
    if (id === null) return;
    const controller = new AbortController();
    fetchCampaign(token, id, controller.signal).then(
      (loaded) => {
        setDetail(loaded);
        setFailed(false);
      },
      (error: unknown) => {
        if (isAbort(error)) return;
        if (isAuthError(error)) return onUnauthorized();
        setFailed(true);
      },
    );
    return () => controller.abort();
  }, [token, id, version, onUnauthorized]);

  // The view replaces the list: focus moves to its heading so a screen reader announces where it is.
  const status = detail?.status ?? 'draft';
  useEffect(() => heading.current?.focus(), [status]);

  // Only an issue opened from the list waits for its text below. A new draft that the editor has just saved
  // keeps its editor mounted, so what the save was for (the send dialog, a test copy) is not lost.
  const title =
    id === null
      ? copy.new_heading
      : status === 'draft'
        ? copy.edit_heading
        : (detail?.subject ?? copy.loading);

  return (
    <section className="admin-campaign" aria-labelledby="admin-campaign-heading">
      <button
        type="button"
        className="admin-button admin-button--quiet admin-campaign__back"
        onClick={onClose}
      >
        <span aria-hidden="true">← </span>
        {copy.back}
      </button>
      <h2 id="admin-campaign-heading" ref={heading} tabIndex={-1} className="admin-campaigns__title">
        {title}
      </h2>
      {failed ? (
        <LoadFailed copy={copy} onRetry={refresh} />
      ) : props.id !== null && !detail ? (
        <p className="admin-status" role="status">
          {copy.loading}
        </p>
      ) : status === 'draft' ? (
        <CampaignEditor
          {...props}
          id={id}
          initial={detail}
          onSaved={setId}
          onSent={refresh}
          onDeleted={onClose}
        />
      ) : (
        <CampaignDelivery
          {...props}
          campaign={detail!}
          onChange={setDetail}
          onRefresh={refresh}
          onOpen={props.onOpen}
        />
      )}
    </section>
  );
}
