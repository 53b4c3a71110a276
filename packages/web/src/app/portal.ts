// The frame of the signed-in routes and their guards, as one chunk: routes.tsx loads it when a signed-in route first
// renders, so the login page does not download it, and the guards arrive with the layout (no request after request).
export { AdminGuard } from '../features/apps/components/AdminGuard';
export { AppCodeRedirect } from '../features/apps/components/AppCodeRedirect';
export { AppEntryPage } from '../features/apps/components/AppEntryPage';
export { SectionGuard } from '../features/apps/components/SectionGuard';
export { prefetchSectionAccess } from '../lib/permissions';
export { PortalLayout } from './PortalLayout';
export { RequireSuperadmin } from './RequireSuperadmin';
