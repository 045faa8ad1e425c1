import { useCallback, useRef } from 'react';

/**
 * A form's send, one at a time. A mutation says it is pending only from its next render, so a
 * second submit before the button is drawn disabled (a double click, Enter twice) sent the
 * request again: a second login, a sign-up the server refused as 'Username o email già in
 * uso', a reset link used twice whose second use said the link no longer works. Answers
 * `sendOnce(start)`: runs `start(settled)` unless a send is in flight; `settled` ends it.
 */
export function useSendOnce(): (start: (done: () => void) => void) => void {
  const sending = useRef(false);
  return useCallback((start) => {
    if (sending.current) return;
    sending.current = true;
    start(() => {
      sending.current = false;
    });
  }, []);
}
