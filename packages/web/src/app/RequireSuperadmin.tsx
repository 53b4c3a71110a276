import { Navigate, Outlet } from 'react-router';
import { useSession } from '../lib/session';

/** The superadmin route group (SPEC section 2): anyone else goes to /not-superadmin. Inside the signed-in layout. */
export function RequireSuperadmin() {
  const session = useSession();
  if (session.status !== 'signed-in') return null;
  return session.user.role === 'superadmin' ? <Outlet /> : <Navigate to="/not-superadmin" replace />;
}
