import { Navigate } from 'react-router';
import { LoadingScreen } from '../components/LoadingScreen';
import { LOGIN_PATH, useSession } from '../lib/session';

/** `/`: a loading screen until the session is known, then superadmin to /superadmin, others to their projects. */
export function HomeRedirect() {
  const session = useSession();
  if (session.status === 'loading') return <LoadingScreen />;
  if (session.status === 'signed-out') return <Navigate to={LOGIN_PATH} replace />;
  return <Navigate to={session.user.role === 'superadmin' ? '/superadmin' : '/member/projects'} replace />;
}
