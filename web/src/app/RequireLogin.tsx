import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { useSession } from '../features/auth/useSession.js';

/**
 * SPEC §2 guard: anonymous users go to /login, which sends them back here afterwards. Only a
 * convenience: the server enforces every permission itself (D2).
 */
export function RequireLogin({ children }: { children: ReactNode }) {
  const user = useSession();
  const location = useLocation();
  if (user === null) {
    return <Navigate to="/login" replace state={{ from: location.pathname + location.search }} />;
  }
  return children;
}
