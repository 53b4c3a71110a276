import { Stack, Text } from '@mantine/core';
import { useLocation, useSearchParams } from 'react-router';
import { activeAppSection, SectionNav } from '../../../components/nav/SectionNav';
import { useStdAssessments } from '../api/assessments';
import type { StdMe } from '../api/me';
import { idParam, pickAssessment, standardsRoute } from './std-parts';
import { KIND_LABELS } from './std-words';

/** The sections of the standards app, in their order; `needs` is the ability that shows the link. */
export const STANDARDS_NAV_SECTIONS = [
  { section: 'compilence', label: 'Compliance', needs: null },
  { section: 'readiness', label: 'Readiness', needs: null },
  { section: 'create', label: 'Create', needs: 'create' },
  { section: 'assign-users', label: 'Assign users', needs: 'assign' },
  { section: 'manage-users', label: 'Manage users', needs: 'manage_users' },
] as const;

/** The section a standards path is in: /app/standards/{projectId}/{section}/... */
export function activeStandardsSection(pathname: string): string | null {
  return activeAppSection(pathname, 'standards');
}

/** Which assessment the screens are about: its name, kind and framework edition. */
function AssessmentContext({ projectId }: { projectId: string }) {
  const [params] = useSearchParams();
  const assessments = useStdAssessments(projectId);
  const current = assessments.data ? pickAssessment(assessments.data.assessments, params.get('assessment')) : null;
  if (!current) return null;
  return (
    <Text size="sm" c="dimmed" data-testid="assessment-context">
      {current.name} · {KIND_LABELS[current.kind]} · {current.framework.name}, edition {current.framework.edition}
    </Text>
  );
}

/**
 * The title of the standards app, the assessment in view and links to the sections the user may open (from GET
 * /me); the links keep `?assessment=` so each section stays on the same assessment.
 */
export function StandardsHeader({ projectId, me }: { projectId: string; me: StdMe | undefined }) {
  const { pathname } = useLocation();
  const [params] = useSearchParams();
  const active = activeStandardsSection(pathname);
  const assessment = idParam(params.get('assessment'));
  const links = me ? STANDARDS_NAV_SECTIONS.filter((item) => item.needs === null || me.abilities[item.needs]) : [];
  return (
    <Stack gap={6}>
      {/* The app's name; each section has its own h1 (PageHeading). */}
      <Text fw={800} fz="lg" c="blue.9" data-testid="standards-app-title">
        Standards
      </Text>
      {me && <AssessmentContext projectId={projectId} />}
      {links.length > 0 && (
        <SectionNav
          label="Standards"
          links={links.map((item) => ({
            ...item,
            to: standardsRoute(projectId, item.section) + (assessment ? `?assessment=${assessment}` : ''),
          }))}
          active={active}
        />
      )}
    </Stack>
  );
}
