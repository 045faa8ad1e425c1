import { use, type ComponentType } from 'react';

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
 */
export function lazyPage(load: () => Promise<{ default: ComponentType }>): LazyPage {
  let Loaded: ComponentType | undefined;
  let loading: Promise<void> | undefined;
  /**
   * The failed attempt the page's render saw, kept: given a new attempt on each render, the
   * page suspended on it, failed, rendered again and asked again, some 170 requests a second
   * for as long as the chunk could not be had (offline, or gone after a deploy), with the old
   * page left on screen and nothing said. Thrown instead, the failure reaches the layout's
   * LoadFailureBoundary, which says so.
   */
  let failed: Promise<void> | undefined;
  const preload = () =>
    (loading ??= load().then(
      (module) => {
        Loaded = module.default;
      },
      (error: unknown) => {
        // A failed chunk (a deploy replaced it, the network dropped) may be asked again.
        loading = undefined;
        throw error;
      },
    ));
  const attempt = () => {
    const started = preload();
    started.catch(() => {
      failed = started;
    });
    return started;
  };
  function Page() {
    if (Loaded === undefined) use(failed ?? loading ?? attempt());
    // `use` returns only once the promise has resolved, and preload sets Loaded before that.
    const Component = Loaded as ComponentType;
    return <Component />;
  }
  Page.preload = preload;
  return Page;
}
