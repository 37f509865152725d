import { useEffect, useState } from 'react';
import { localePath } from '../../../../i18n/lang.ts';
import { duplicateCampaign, isAuthError, setCampaignArchive, type CampaignDetail } from '../api.ts';
import { fill } from '../format.ts';
import type { CampaignsProps } from './types.ts';

interface Props extends Pick<CampaignsProps, 'token' | 'copy' | 'notify' | 'onUnauthorized'> {
  campaign: CampaignDetail;
  onChange: (campaign: CampaignDetail) => void;
  /** Opens another issue in place of this one (the new draft). */
  onOpen: (id: number) => void;
}

/**
 * What an issue that went out offers besides its figures: "Duplicate" (a new draft with its content) and,
 * once it is being sent or sent, whether the public archive lists it.
 */
export function CampaignReuse({ token, copy, notify, onUnauthorized, campaign, onChange, onOpen }: Props) {
  const [busy, setBusy] = useState(false);
  /** The box follows the click at once; a failed save puts it back. */
  const [listed, setListed] = useState(campaign.inArchive);
  useEffect(() => setListed(campaign.inArchive), [campaign.inArchive]);
  const archivable = campaign.status === 'sent' || campaign.status === 'sending';

  const act = async (work: () => Promise<void>, failed: string) => {
    if (busy) return;
    setBusy(true);
    try {
      await work();
    } catch (error) {
      setListed(campaign.inArchive);
      if (isAuthError(error)) onUnauthorized();
      else notify(failed, 'error');
    } finally {
      setBusy(false);
    }
  };

  const duplicate = () =>
    act(async () => {
      onOpen(await duplicateCampaign(token, campaign.id));
      notify(copy.duplicated);
    }, copy.duplicate_failed);

  const toggle = (inArchive: boolean) => {
    setListed(inArchive);
    return act(async () => {
      onChange(await setCampaignArchive(token, campaign.id, inArchive));
      notify(inArchive ? copy.archive_listed : copy.archive_unlisted);
    }, copy.archive_failed);
  };

  return (
    <div className="admin-campaign__reuse">
      {archivable && (
        <fieldset className="admin-choice" aria-describedby="campaign-archive-hint">
          <legend className="admin-label">{copy.archive_legend}</legend>
          <p id="campaign-archive-hint" className="admin-hint">
            {fill(copy.archive_hint, { path: localePath(campaign.lang, '/newsletter') })}
          </p>
          <label className="admin-choice__option">
            <input
              type="checkbox"
              checked={listed}
              aria-disabled={busy}
              onChange={(event) => !busy && void toggle(event.target.checked)}
            />
            <span>{copy.archive_on}</span>
          </label>
        </fieldset>
      )}
      <div className="admin-campaign__actions">
        <button type="button" className="admin-button" aria-disabled={busy} onClick={() => void duplicate()}>
          {copy.duplicate}
        </button>
      </div>
    </div>
  );
}
