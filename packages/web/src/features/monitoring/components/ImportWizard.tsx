import { Alert, Button, Stack, Stepper } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { toast } from 'sonner';
import { ErrorNotice, LoadingRows } from '../../../components/page-parts';
import { ApiError, messageFor } from '../../../lib/api';
import type { Dataset } from '../api/data-datasets';
import {
  discardImport,
  type ImportDetail,
  type ImportSettings,
  invalidateAfterCommit,
  useImport,
  useSaveImportSettings,
} from '../api/data-imports';
import { ImportCommitStep } from './ImportCommitStep';
import { ImportFileStep } from './ImportFileStep';
import { ImportMappingStep } from './ImportMappingStep';
import { ImportPreviewStep } from './ImportPreviewStep';
import { ImportUploadStep } from './ImportUploadStep';
import {
  canonical,
  fileSettingsProblem,
  type ImportDraft,
  initialDraft,
  mappingProblem,
  modeProblem,
  previewSignature,
  relayout,
  settingsOf,
} from './import-draft';
import { formatCount, StepButtons } from './import-parts';

const STEPS = ['Upload', 'File settings', 'Columns', 'Preview', 'Import'] as const;
const UPLOAD = 0;
const FILE = 1;
const COLUMNS = 2;
const PREVIEW = 3;
const COMMIT = 4;

interface ImportWizardProps {
  projectId: string;
  dataset: Dataset;
  /** The import being prepared (from the URL), or null before a file is uploaded. */
  importId: number | null;
  onImportId: (importId: number | null) => void;
}

/** The import wizard of one dataset: upload, file settings, columns, preview and choices, import. */
export function ImportWizard({ projectId, dataset, importId, onImportId }: ImportWizardProps) {
  const current = useImport(projectId, importId);

  if (importId === null) {
    return (
      <WizardSteps active={UPLOAD}>
        <ImportUploadStep projectId={projectId} datasetId={dataset.id} onUploaded={(detail) => onImportId(detail.id)} />
      </WizardSteps>
    );
  }
  if (current.isPending) return <LoadingRows label="Loading the import" rows={3} />;
  if (current.isError || current.data.dataset_id !== dataset.id) {
    const gone = current.isError ? current.error instanceof ApiError && current.error.status === 404 : true;
    return (
      <Stack gap="sm" align="flex-start">
        <Alert color="red" variant="light" role="alert" w="100%">
          {gone
            ? 'This import no longer exists: it was discarded, or it belongs to another dataset.'
            : messageFor(current.error, 'The import could not be loaded. Please try again.')}
        </Alert>
        <Button variant="default" onClick={() => (gone ? onImportId(null) : void current.refetch())}>
          {gone ? 'Start a new import' : 'Try again'}
        </Button>
      </Stack>
    );
  }
  return (
    <ImportFlow
      key={current.data.id}
      projectId={projectId}
      dataset={dataset}
      detail={current.data}
      onImportId={onImportId}
    />
  );
}

function WizardSteps({
  active,
  onStepClick,
  children,
}: {
  active: number;
  onStepClick?: (step: number) => void;
  children: ReactNode;
}) {
  const narrow = useMediaQuery('(max-width: 48em)');
  return (
    <Stepper
      active={active}
      onStepClick={onStepClick}
      allowNextStepsSelect={false}
      orientation={narrow ? 'vertical' : 'horizontal'}
      size="sm"
    >
      {STEPS.map((label, index) => (
        <Stepper.Step key={label} label={label} allowStepSelect={onStepClick !== undefined && index < active}>
          {index === active ? children : null}
        </Stepper.Step>
      ))}
    </Stepper>
  );
}

function startingStep(detail: ImportDetail, draft: ImportDraft): number {
  if (detail.status !== 'uploaded') return COMMIT;
  if (detail.settings && previewSignature(detail.settings) === previewSignature(settingsOf(draft, true))) {
    return PREVIEW;
  }
  return FILE;
}

function ImportFlow({
  projectId,
  dataset,
  detail,
  onImportId,
}: {
  projectId: string;
  dataset: Dataset;
  detail: ImportDetail;
  onImportId: (importId: number | null) => void;
}) {
  const queryClient = useQueryClient();
  const save = useSaveImportSettings(projectId, detail.id);
  const [draft, setDraft] = useState(() => initialDraft(detail));
  const [active, setActive] = useState(() => startingStep(detail, draft));
  /** The settings the server last accepted (canonical JSON): what its preview and its commit will use. */
  const [savedAs, setSavedAs] = useState(() => (detail.settings ? canonical(detail.settings) : null));
  const [previewFailure, setPreviewFailure] = useState<string | null>(null);
  const [commitFailure, setCommitFailure] = useState<string | null>(null);
  const lastStatus = useRef(detail.status);

  // A commit seen through to its end in this wizard: tell the person, and refresh what the new rows change.
  useEffect(() => {
    const before = lastStatus.current;
    lastStatus.current = detail.status;
    if (before === detail.status) return;
    if (detail.status === 'committed') {
      toast.success(`Imported ${formatCount(detail.rows_ok, 'row', 'rows')} into "${dataset.name}".`);
      void invalidateAfterCommit(queryClient, projectId);
    } else if (detail.status === 'failed') {
      void invalidateAfterCommit(queryClient, projectId);
    }
  }, [detail.status, detail.rows_ok, dataset.name, projectId, queryClient]);

  const change = (patch: Partial<ImportDraft>) => {
    setCommitFailure(null);
    setDraft((before) => ({ ...before, ...patch }));
  };
  const settled = detail.status !== 'uploaded';
  const savedSettings = savedAs ? (JSON.parse(savedAs) as ImportSettings) : null;
  const previewFresh =
    savedSettings !== null && previewSignature(savedSettings) === previewSignature(settingsOf(draft, true));

  async function saveSettings(forPreview: boolean): Promise<ImportDetail | null> {
    const body = settingsOf(draft, forPreview);
    const fail = forPreview ? setPreviewFailure : setCommitFailure;
    fail(null);
    try {
      const saved = await save.mutateAsync(body);
      setSavedAs(canonical(body));
      return saved;
    } catch (error) {
      fail(messageFor(error, 'The settings could not be saved. Please try again.'));
      return null;
    }
  }

  async function openPreview() {
    setActive(PREVIEW);
    if (!previewFresh) await saveSettings(true);
  }

  async function openCommit() {
    const saved = savedAs === canonical(settingsOf(draft)) ? detail : await saveSettings(false);
    if (saved && saved.phi_blocked.length === 0) setActive(COMMIT);
  }

  async function replaceFile(uploaded: ImportDetail) {
    // The file this wizard had uploaded is replaced: it was never imported, so it goes.
    if (detail.status === 'uploaded') await discardImport(projectId, detail.id).catch(() => undefined);
    onImportId(uploaded.id);
  }

  const phiBlocked =
    previewFresh && detail.phi_blocked.length > 0
      ? 'Columns that look like patient identifiers cannot be imported into this dataset.'
      : null;
  const previewProblem = previewFailure
    ? 'The preview could not be read.'
    : !previewFresh
      ? 'Wait for the preview.'
      : (phiBlocked ??
        modeProblem(draft) ??
        (draft.error_policy === 'abort' && detail.preview_errors > 0
          ? 'The preview found rows with errors: choose to skip bad rows, or correct the file and upload it again.'
          : null));

  let body: ReactNode;
  switch (active) {
    case UPLOAD:
      body = (
        <Stack gap="md">
          <ImportUploadStep
            projectId={projectId}
            datasetId={dataset.id}
            replacing={{ name: detail.file_name, size: detail.size, rows: detail.detected.row_count }}
            onUploaded={(uploaded) => void replaceFile(uploaded)}
          />
          <StepButtons id="upload-next" onNext={() => setActive(FILE)} problem={null} />
        </Stack>
      );
      break;
    case FILE:
      body = (
        <Stack gap="md">
          <ImportFileStep
            detected={detail.detected}
            draft={draft}
            onLayout={(delimiter, hasHeader) =>
              setDraft((before) => relayout(before, detail.detected, delimiter, hasHeader))
            }
            onChange={change}
          />
          <StepButtons
            id="file-next"
            onBack={() => setActive(UPLOAD)}
            onNext={() => setActive(COLUMNS)}
            problem={fileSettingsProblem(draft)}
          />
        </Stack>
      );
      break;
    case COLUMNS:
      body = (
        <Stack gap="md">
          <ImportMappingStep dataset={dataset} draft={draft} onChange={change} />
          <StepButtons
            id="columns-next"
            onBack={() => setActive(FILE)}
            onNext={() => void openPreview()}
            problem={mappingProblem(draft, dataset)}
          />
        </Stack>
      );
      break;
    case PREVIEW:
      body = (
        <Stack gap="md">
          <ImportPreviewStep
            detail={previewFresh ? detail : null}
            draft={draft}
            loading={save.isPending}
            failure={previewFailure}
            onRetry={() => void saveSettings(true)}
            onChange={change}
          />
          <ErrorNotice message={commitFailure} />
          <StepButtons
            id="preview-next"
            onBack={() => {
              setPreviewFailure(null);
              setCommitFailure(null);
              setActive(COLUMNS);
            }}
            onNext={() => void openCommit()}
            problem={previewProblem}
            busy={save.isPending && previewFresh}
          />
        </Stack>
      );
      break;
    default:
      body = (
        <ImportCommitStep
          projectId={projectId}
          detail={detail}
          blocked={
            detail.phi_blocked.length > 0 ? 'Columns that look like patient identifiers cannot be imported.' : null
          }
          onBack={() => setActive(PREVIEW)}
          onRestart={() => onImportId(null)}
        />
      );
  }

  return (
    <WizardSteps active={active} onStepClick={settled ? undefined : setActive}>
      {body}
    </WizardSteps>
  );
}
