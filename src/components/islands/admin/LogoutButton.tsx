import { useState } from 'react';
import { ADMIN_LOGIN, clearToken, readToken } from '../../../lib/admin-token.ts';
import { signOut } from './api.ts';
import type { LogoutCopy } from './copy.ts';
import './admin.css';

interface Props {
  copy: LogoutCopy;
}

/** Signs out everywhere: forgets the token here, revokes it on the server, then shows the sign-in page. */
export default function LogoutButton({ copy }: Props) {
  const [busy, setBusy] = useState(false);

  const logout = async () => {
    if (busy) return;
    setBusy(true);
    const token = readToken();
    clearToken();
    if (token) {
      try {
        await signOut(token);
      } catch {
        // Already invalid or the server is unreachable: the token is gone from this browser either way.
      }
    }
    window.location.assign(ADMIN_LOGIN);
  };

  return (
    <button type="button" className="admin-button admin-button--quiet" aria-disabled={busy} onClick={logout}>
      <svg viewBox="0 0 20 20" aria-hidden="true" focusable="false">
        <path
          d="M8 4H4.5v12H8M12 6.5L15.5 10 12 13.5M15.5 10H8"
          fill="none"
          stroke="currentColor"
          strokeWidth="1.6"
        />
      </svg>
      {copy.logout}
    </button>
  );
}
