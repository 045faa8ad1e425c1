import { Component, Suspense, type ErrorInfo, type ReactNode } from 'react';
import { Outlet, useLocation } from 'react-router';
import { ErrorMessage } from './StatusMessage.js';

/** What a screen whose code could not be loaded shows in its place. */
export const LOAD_FAILURE = 'Impossibile caricare la pagina. Controlla la connessione e riprova.';

interface Props {
  children: ReactNode;
  /** A new value (the location's key) draws the children again: another page was asked for. */
  resetKey?: string;
}

interface State {
  failed: boolean;
  resetKey: string | undefined;
}

/**
 * Catches what a screen throws while drawing, above all a chunk that did not load (no network,
 * or a new version deployed in between: its old chunks are gone). Without it React unmounted
 * the whole app, header included: a back-office page opened offline left an empty black page.
 * 'Riprova' loads the page anew: a page's renders do not ask for a failed chunk again
 * (chunkLoader.ts; React.lazy, in the back-office, keeps its failure for good), and after a
 * deploy only a new index.html names chunks that exist. The header's controls, with a page
 * still there beside them, ask again in place instead (Header.tsx).
 */
export class LoadFailureBoundary extends Component<Props, State> {
  override state: State = { failed: false, resetKey: this.props.resetKey };

  static getDerivedStateFromError(): Partial<State> {
    return { failed: true };
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    return props.resetKey === state.resetKey ? null : { failed: false, resetKey: props.resetKey };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error(error, info.componentStack);
  }

  override render(): ReactNode {
    if (!this.state.failed) return this.props.children;
    return (
      <ErrorMessage
        message={LOAD_FAILURE}
        onRetry={() => {
          window.location.reload();
        }}
      />
    );
  }
}

/**
 * A layout's page: the route's screen while its chunk loads (`fallback`), and the failure said
 * in its place when it cannot, drawn again when the reader goes to another address.
 */
export function LoadedOutlet({ fallback }: { fallback: ReactNode }) {
  const { key } = useLocation();
  return (
    <LoadFailureBoundary resetKey={key}>
      <Suspense fallback={fallback}>
        <Outlet />
      </Suspense>
    </LoadFailureBoundary>
  );
}
