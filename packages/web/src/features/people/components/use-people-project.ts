import { useCurrentProject } from '../../../lib/project/project-context';
import type { PeopleScreens } from '../apps';

/**
 * The project of the app's route. The app's routes sit behind SectionGuard, which renders nothing until the project
 * is known, so inside them the id is always there.
 */
export function usePeopleProjectId(d: PeopleScreens): string {
  const { projectId } = useCurrentProject();
  if (!projectId) throw new Error(`The ${d.names.app} screens render only inside a project (SectionGuard).`);
  return projectId;
}
