import { startTransition, useEffect, useState, type ReactNode } from 'react';

/**
 * Its children in a commit of their own, after the one it first appears in, rendered in the
 * background (a transition, which React cuts into slices of a few milliseconds).
 *
 * For what a page shows beside or below its first screen: React's first commit, which replaces
 * the server's first screen, then holds only what that screen showed, and the commit, never cut
 * (emotion inserts every new component's styles in it), stays short (goal 8: the image page's
 * first commit was its longest task on a phone). Only where nothing above moves when the
 * children arrive.
 */
export function Later({ children }: { children: ReactNode }) {
  const [shown, setShown] = useState(false);
  useEffect(() => {
    startTransition(() => {
      setShown(true);
    });
  }, []);
  return shown ? children : null;
}
