import { useCurrentProject } from '../../../lib/project/project-context';

/**
 * The project of the policy app's route. The app's routes sit behind SectionGuard, which renders nothing until the
 * project is known, so inside them the id is always there.
 */
export function usePolicyProjectId(): string {
  const { projectId } = useCurrentProject();
  if (!projectId) throw new Error('The policy screens render only inside a project (SectionGuard).');
  return projectId;
}

/** Where a policy screen lives: /app/policy_management/{projectId}/{path}. */
export function policyRoute(projectId: string, path = ''): string {
  return `/app/policy_management/${projectId}${path ? `/${path}` : ''}`;
}
