import { Navigate, useLocation } from 'react-router';
import { useSession } from '../features/auth/useSession.js';
import { AdminShell } from './AdminShell.js';

/**
 * The door to /admin (SPEC §2): anonymous visitors go to /login and come back afterwards,
 * everyone else who is not an administrator goes to /. A convenience only: every admin call is
 * refused by the server to anyone it does not know as an administrator (D2).
 */
export default function AdminArea() {
  const user = useSession();
  const location = useLocation();
  if (user === null) {
    return <Navigate to="/login" replace state={{ from: location.pathname + location.search }} />;
  }
  if (!user.is_superuser) return <Navigate to="/" replace />;
  return <AdminShell user={user} />;
}
