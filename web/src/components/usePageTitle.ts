import { useEffect } from 'react';
import { pageTitle } from '../lib/format.js';

/** D11: every page names itself in the browser tab. */
export function usePageTitle(name?: string): void {
  useEffect(() => {
    document.title = pageTitle(name);
  }, [name]);
}
