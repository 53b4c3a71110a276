import { webProject } from './vitest.config.ts';

export default webProject(true);
