import { useLocation, useNavigate } from 'react-router';
import { SuccessNotice } from '../components/StatusMessage.js';

/** The navigation state that carries a confirmation to the next page (see PageNotice). */
export interface NoticeState {
  notice: string;
}

function noticeOf(state: unknown): string | null {
  const notice = (state as Partial<NoticeState> | null)?.notice;
  return typeof notice === 'string' && notice !== '' ? notice : null;
}

/**
 * A confirmation told on the page an action led to, when the page it came from is gone: an
 * account deleted from the profile landed on the home page without a word, so nobody knew
 * whether the deletion had been taken. Closing it drops it from the history entry, so Back
 * and a reload do not show it again.
 */
export function PageNotice() {
  const location = useLocation();
  const navigate = useNavigate();
  const notice = noticeOf(location.state);
  // Drawn on every page of the layout, empty too: the layout stays while the profile gives way
  // to the home page, so the notice enters a live region that was already there.
  return (
    <SuccessNotice
      message={notice}
      sx={{ mb: 3 }}
      onClose={() => {
        void navigate(location, { replace: true, state: null });
      }}
    />
  );
}
