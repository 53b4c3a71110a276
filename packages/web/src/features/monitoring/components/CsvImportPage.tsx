import { Alert, Stack, Text } from '@mantine/core';
import { useSearchParams } from 'react-router';
import { LoadingRows, PageHeading } from '../../../components/page-parts';
import { ApiError, messageFor } from '../../../lib/api';
import { usePageTitle } from '../../../lib/use-page-title';
import { useDataset, useDatasets } from '../api/data-datasets';
import { DatasetDetails } from './DatasetDetails';
import { DatasetsPanel } from './DatasetsPanel';
import { ImportHistory } from './ImportHistory';
import { ImportWizard } from './ImportWizard';
import { DataCard } from './import-parts';
import { useMonitoringProjectId } from './use-monitoring-project';

const TITLE = 'CSV import';

function idParam(value: string | null): number | null {
  return value && /^[1-9]\d{0,9}$/.test(value) ? Number(value) : null;
}

/**
 * /app/monitoring/{projectId}/csv-import[?dataset={id}[&import={id}]]: the project's datasets, and for the one
 * selected its details, the import wizard and the import history. The URL keeps the selection (and the import
 * being prepared), so a reload or a shared link opens the same place.
 */
export function CsvImportPage() {
  usePageTitle(TITLE);
  const projectId = useMonitoringProjectId();
  const [params, setParams] = useSearchParams();
  const datasetId = idParam(params.get('dataset'));
  const importId = datasetId === null ? null : idParam(params.get('import'));
  const datasets = useDatasets(projectId);
  const listed = datasets.data?.datasets.find((item) => item.id === datasetId);
  const selected = useDataset(projectId, datasetId, listed);

  const select = (id: number | null, replace = false) =>
    setParams(id === null ? {} : { dataset: String(id) }, { replace });
  const setImport = (id: number | null) =>
    setParams(
      (before) => {
        const next = new URLSearchParams(before);
        if (id === null) next.delete('import');
        else next.set('import', String(id));
        return next;
      },
      { replace: true },
    );

  const dataset = selected.data;
  return (
    <Stack gap="lg" w="100%" maw={1200}>
      <PageHeading title={TITLE}>
        Bring data into a dataset from a CSV file: check how the file is read and what each column means, preview the
        rows, then import them. Every import can be rolled back.
      </PageHeading>
      <DatasetsPanel
        projectId={projectId}
        datasets={datasets}
        selectedId={datasetId}
        hrefFor={(id) => `?dataset=${id}`}
        onCreated={(created) => select(created.id)}
      />
      {datasetId !== null &&
        (selected.isPending ? (
          <LoadingRows label="Loading the dataset" rows={3} />
        ) : selected.isError && !dataset ? (
          <Alert color="red" variant="light" role="alert">
            {selected.error instanceof ApiError && selected.error.status === 404
              ? 'This dataset does not exist, or it was deleted. Choose another one.'
              : messageFor(selected.error, 'The dataset could not be loaded. Please try again.')}
          </Alert>
        ) : dataset ? (
          <>
            <DatasetDetails projectId={projectId} dataset={dataset} onDeleted={() => select(null, true)} />
            {dataset.abilities.import ? (
              <DataCard id="wizard-heading" title="Import a CSV file">
                <ImportWizard
                  key={dataset.id}
                  projectId={projectId}
                  dataset={dataset}
                  importId={importId}
                  onImportId={setImport}
                />
              </DataCard>
            ) : (
              <Text>You can see this dataset and its imports, but not import into it.</Text>
            )}
            <ImportHistory
              projectId={projectId}
              dataset={dataset}
              openImportId={importId}
              onContinue={setImport}
              onDiscarded={(id) => id === importId && setImport(null)}
            />
          </>
        ) : null)}
      {datasetId === null && datasets.data && datasets.data.datasets.length > 0 && (
        <Text c="gray.8">Choose a dataset to see its details, import a file into it, or roll back an import.</Text>
      )}
    </Stack>
  );
}
