import type { ComponentType } from 'react';
import { chunkLoader } from '../lib/chunkLoader.js';

/** A page drawn from its own chunk, which can be loaded ahead of its first render. */
export interface LazyPage {
  (): React.JSX.Element;
  /** Loads the chunk (once); resolves when the page can be drawn without suspending. */
  preload(): Promise<void>;
}

/**
 * Like React.lazy, except that a page whose chunk is already loaded renders at once. React.lazy
 * suspends on its first render even then, so the first commit would show the Suspense fallback
 * (a spinner) in place of the first screen the server drew in index.html, and the page a moment
 * later (goal 8: main.tsx loads the page's chunk before the first render to avoid exactly that).
 * A chunk that failed is thrown to the layout's LoadFailureBoundary, which says so, and is not
 * asked for again by the page's renders (chunkLoader.ts); 'Riprova' there reloads.
 */
export function lazyPage(load: () => Promise<{ default: ComponentType }>): LazyPage {
  const chunk = chunkLoader(load);
  function Page() {
    const { default: Component } = chunk.read();
    return <Component />;
  }
  Page.preload = () => chunk.load().then(() => undefined);
  return Page;
}
