import type { DbOrTx } from '../../db/client.js';

/** Issue 9: recomputes the cached series of every measure on a dataset (after a commit or a roll back). */
export async function recomputeDatasetSeries(_db: DbOrTx, _projectId: number, _datasetId: number): Promise<void> {}
