import {
  Alert,
  Anchor,
  Button,
  Collapse,
  Group,
  Paper,
  SimpleGrid,
  Skeleton,
  Stack,
  Tabs,
  Text,
  Title,
} from '@mantine/core';
import { type DocumentDetail, type PolicyVersion, permissionKey, VERSION_STATE_LABELS } from '@portal/shared';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useId, useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { DisclosureChevron } from '../../../components/DisclosureChevron';
import { NotFoundPage } from '../../../components/NotFoundPage';
import { LoadFailure } from '../../../components/page-parts';
import { isBlankHtml, PolicyContent } from '../../../components/policy/PolicyContent';
import { PolicyOutline } from '../../../components/policy/PolicyOutline';
import { StatusBadge } from '../../../components/policy/StatusBadge';
import { ApiError, messageFor } from '../../../lib/api';
import { formatDateLong, formatDateTime, formatDayLong } from '../../../lib/dates';
import { myPermissionsQueryOptions } from '../../../lib/permissions';
import { usePageTitle } from '../../../lib/use-page-title';
import { usePhone } from '../../../lib/use-phone';
import { useArchiveDocument } from '../api/archive-document';
import { documentPath, useDocument } from '../api/get-document';
import { useVersion } from '../api/get-version';
import { useWorkflow } from '../api/get-workflow';
import { useStartNewVersion } from '../api/new-version';
import { useRestoreDocument } from '../api/restore-document';
import { ArchivePolicyModal } from './ArchivePolicyModal';
import { DocumentCompare } from './DocumentCompare';
import { DocumentHistory } from './DocumentHistory';
import { DocumentSettingsModal } from './DocumentSettingsModal';
import { DocumentAttestationReport, DocumentWorkflowPanel } from './DocumentWorkflowPanel';
import {
  DOCUMENT_ID,
  documentEditPage,
  documentName,
  documentPage,
  documentPrintPage,
  versionIdParam,
  versionLabel,
} from './document-format';
import { PolicyLinkActions } from './PolicyLinkActions';
import { policyRoute, usePolicyProjectId } from './use-policy-project';
import { VersionSourceText } from './VersionSourceText';

export const NOT_FOUND = 'This policy does not exist or is not available to you.';
const TABS = ['policy', 'history', 'compare', 'readers'] as const;
type Tab = (typeof TABS)[number];

/**
 * /app/policy_management/{projectId}/documents/{documentId}[?version={versionId}&tab=history|compare|readers]: one
 * policy, its header and the actions the server allows (`abilities`), its review and signature workflow, with its
 * text, its history, a redline compare and (for those allowed) who has read it.
 */
export function DocumentPage() {
  const projectId = usePolicyProjectId();
  const { documentId = '' } = useParams();
  if (!DOCUMENT_ID.test(documentId)) return <NotFoundPage />;
  return <DocumentView key={documentId} projectId={projectId} documentId={documentId} />;
}

function DocumentView({ projectId, documentId }: { projectId: string; documentId: string }) {
  const document = useDocument(projectId, documentId);
  usePageTitle(document.data ? documentName(document.data) : 'Policy');
  const back = (
    <Anchor component={Link} to={policyRoute(projectId, 'toc')} size="sm" w="fit-content">
      ← Table of contents
    </Anchor>
  );

  let body: ReactNode;
  // Data first: a failed background refetch keeps the data it had.
  if (document.data) {
    body = <DocumentDetails projectId={projectId} document={document.data} />;
  } else if (document.isError && document.error instanceof ApiError && document.error.status === 404) {
    body = (
      <Stack gap="md" align="flex-start">
        <Title order={1}>Policy not found</Title>
        <Alert color="yellow" variant="light" role="alert" w="100%">
          {NOT_FOUND}
        </Alert>
      </Stack>
    );
  } else if (document.isError) {
    body = (
      <Stack gap="md">
        <Title order={1}>Policy</Title>
        <LoadFailure
          error={document.error}
          fallback="The policy could not be loaded. Please try again."
          retrying={document.isFetching}
          onRetry={() => void document.refetch()}
        />
      </Stack>
    );
  } else {
    body = (
      <Stack gap="md" role="status" aria-label="Loading the policy">
        <Skeleton height={120} radius="md" />
        <Skeleton height={320} radius="md" />
      </Stack>
    );
  }

  return (
    <Stack gap="lg" w="100%" maw={1100} miw={0}>
      {back}
      {body}
    </Stack>
  );
}

function DocumentDetails({ projectId, document }: { projectId: string; document: DocumentDetail }) {
  const [params, setParams] = useSearchParams();
  const versionParam = params.get('version');
  const versionId = versionIdParam(versionParam);
  const tabParam = params.get('tab');
  const workflow = useWorkflow(projectId, document.id);
  const phone = usePhone();
  // The header's Settings, also opened by the workflow panel when the policy still needs a department.
  const [settingsOpen, setSettingsOpen] = useState(false);
  const permissions = useQuery(myPermissionsQueryOptions('policy_management', projectId));
  // The attestation report: the workflow's ability, or the section of the permission map.
  const readersAllowed =
    workflow.data?.abilities.view_attestations === true ||
    permissions.data?.[permissionKey('policy_management', 'attestation-reports')] === true;
  const requested: Tab = TABS.includes(tabParam as Tab) ? (tabParam as Tab) : 'policy';
  const tab: Tab = requested === 'readers' && !readersAllowed ? 'policy' : requested;

  function showTab(next: string | null) {
    setParams(
      (current) => {
        const updated = new URLSearchParams(current);
        if (!next || next === 'policy') updated.delete('tab');
        else updated.set('tab', next);
        return updated;
      },
      { replace: true },
    );
  }

  // The version the Policy tab shows, and so the one Print prints.
  const shownId =
    versionParam !== null ? versionId : (document.current_version?.id ?? document.draft_version?.id ?? null);

  // On a phone the text comes first: the review and sign-off panel (a reader's "I have read it") follows it.
  const workflowPanel = (
    <div data-testid="workflow-panel">
      <DocumentWorkflowPanel
        projectId={projectId}
        document={document}
        onChooseDepartment={() => setSettingsOpen(true)}
      />
    </div>
  );
  return (
    <Stack gap={phone ? 'md' : 'lg'} miw={0}>
      <DocumentHeader
        projectId={projectId}
        document={document}
        printVersionId={shownId}
        settingsOpen={settingsOpen}
        onSettingsOpen={setSettingsOpen}
      />
      {!phone && workflowPanel}
      <Tabs value={tab} onChange={showTab} keepMounted={false}>
        <Tabs.List aria-label="Policy views">
          <Tabs.Tab value="policy">Policy</Tabs.Tab>
          <Tabs.Tab value="history">History</Tabs.Tab>
          <Tabs.Tab value="compare">Compare</Tabs.Tab>
          {readersAllowed && <Tabs.Tab value="readers">Readers</Tabs.Tab>}
        </Tabs.List>
        <Tabs.Panel value="policy" pt="md">
          <PolicyTab
            projectId={projectId}
            document={document}
            versionId={versionId}
            badVersion={versionParam !== null && versionId === null}
          />
        </Tabs.Panel>
        <Tabs.Panel value="history" pt="md">
          <DocumentHistory projectId={projectId} document={document} shownVersionId={shownId} />
        </Tabs.Panel>
        <Tabs.Panel value="compare" pt="md">
          <DocumentCompare projectId={projectId} document={document} />
        </Tabs.Panel>
        {readersAllowed && (
          <Tabs.Panel value="readers" pt="md">
            <DocumentAttestationReport projectId={projectId} documentId={document.id} />
          </Tabs.Panel>
        )}
      </Tabs>
      {phone && workflowPanel}
    </Stack>
  );
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text component="dt" size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text component="dd" m={0} size="sm">
        {children}
      </Text>
    </div>
  );
}

interface HeaderProps {
  projectId: string;
  document: DocumentDetail;
  printVersionId: number | null;
  settingsOpen: boolean;
  onSettingsOpen: (open: boolean) => void;
}

function DocumentHeader({ projectId, document, printVersionId, settingsOpen, onSettingsOpen }: HeaderProps) {
  const navigate = useNavigate();
  const id = String(document.id);
  const startVersion = useStartNewVersion(projectId, id);
  const archive = useArchiveDocument(projectId, id);
  const restore = useRestoreDocument(projectId);
  const [confirmArchive, setConfirmArchive] = useState(false);
  const phone = usePhone();
  const [detailsOpen, setDetailsOpen] = useState(false);
  const detailsId = useId();
  // The add-standards section (policy admins): link this policy to the standard elements it meets.
  const permissions = useQuery(myPermissionsQueryOptions('policy_management', projectId));
  const linkStandards = permissions.data?.[permissionKey('policy_management', 'add-standards')] === true;
  const { abilities } = document;
  const archived = document.status === 'archived';
  const draft = document.draft_version;
  const editableDraft = draft?.state === 'draft';

  async function startNewVersion() {
    try {
      await startVersion.mutateAsync();
      void navigate(documentEditPage(projectId, document.id));
    } catch (error) {
      toast.error(messageFor(error, 'The new version could not be started. Please try again.'));
    }
  }

  async function archiveNow(replacedById: number | null) {
    setConfirmArchive(false);
    try {
      await archive.mutateAsync(replacedById);
      toast.success(`"${document.title}" was archived.`);
    } catch (error) {
      toast.error(messageFor(error, 'The policy could not be archived. Please try again.'));
    }
  }

  async function restoreNow() {
    try {
      const result = await restore.mutateAsync(document.id);
      toast.success(result.message || `"${document.title}" was restored.`);
    } catch (error) {
      toast.error(messageFor(error, 'The policy could not be restored. Please try again.'));
    }
  }

  const details = (
    <>
      <SimpleGrid
        component="dl"
        m={0}
        cols={{ base: 1, xs: 2, md: document.approved_at ? 5 : 4 }}
        spacing="sm"
        verticalSpacing="xs"
      >
        <Fact label="Department">
          {document.department ? `${document.department.name} (${document.department.code})` : 'No department'}
        </Fact>
        <Fact label="Owner">{document.owner?.name ?? 'No owner'}</Fact>
        <Fact label="Effective date">{formatDayLong(document.effective_on, 'Not yet effective')}</Fact>
        {document.approved_at && <Fact label="Approved">{formatDateLong(document.approved_at)}</Fact>}
        <Fact label="Next review">{formatDayLong(document.next_review_on, 'Not set')}</Fact>
      </SimpleGrid>
      {document.generated_from && (
        <Text size="sm" c="dimmed" data-testid="generated-from">
          Made with the Policy Generator from{' '}
          <Anchor component={Link} to={`/app/policy_generator/templates/${document.generated_from.template_id}`}>
            {document.generated_from.template_title}
          </Anchor>
          , template version {document.generated_from.template_version}, on {formatDateTime(document.generated_from.at)}
          .
        </Text>
      )}
    </>
  );
  const actions = (
    <Group gap="sm" wrap="wrap">
      {abilities.edit && !archived && editableDraft && (
        <Button component={Link} to={documentEditPage(projectId, document.id)}>
          Edit draft
        </Button>
      )}
      {abilities.edit && !archived && !draft && document.current_version && (
        <Button onClick={() => void startNewVersion()} loading={startVersion.isPending}>
          Start new version
        </Button>
      )}
      {abilities.edit && !archived && (
        <Button variant="default" onClick={() => onSettingsOpen(true)}>
          Settings
        </Button>
      )}
      {printVersionId !== null && (
        <Button variant="default" component={Link} to={documentPrintPage(projectId, document.id, printVersionId)}>
          Print
        </Button>
      )}
      {document.current_version && !archived && (
        <Button variant="default" component="a" href={`${documentPath(projectId, document.id)}/pdf`} download>
          Download PDF
        </Button>
      )}
      <PolicyLinkActions projectId={projectId} document={document} />
      {linkStandards && (
        <Button variant="default" component={Link} to={policyRoute(projectId, `add-standards?document=${document.id}`)}>
          Link to standards
        </Button>
      )}
      {abilities.archive && !archived && (
        <Button variant="default" color="red.8" onClick={() => setConfirmArchive(true)} loading={archive.isPending}>
          Archive
        </Button>
      )}
      {abilities.restore && archived && (
        <Button variant="default" onClick={() => void restoreNow()} loading={restore.isPending}>
          Restore
        </Button>
      )}
    </Group>
  );

  return (
    <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }}>
      <Stack gap="md">
        <Stack gap={4}>
          <Group gap="sm" wrap="wrap">
            {document.number ? (
              <Text ff="monospace" fw={700} c="dimmed">
                {document.number}
              </Text>
            ) : (
              <Text size="sm" c="dimmed">
                No number yet
              </Text>
            )}
            <StatusBadge status={document.status} />
          </Group>
          <Title order={1} fz={{ base: 'h3', sm: 'h2' }} style={{ overflowWrap: 'anywhere' }}>
            {document.title}
          </Title>
        </Stack>
        {archived && (
          <Alert color="gray" variant="light">
            This policy is archived: it is not in the table of contents. Its whole history is kept.
          </Alert>
        )}
        {phone ? (
          <>
            <Button
              variant="default"
              size="compact-md"
              w="fit-content"
              aria-expanded={detailsOpen}
              aria-controls={detailsId}
              onClick={() => setDetailsOpen((was) => !was)}
              leftSection={<DisclosureChevron open={detailsOpen} />}
            >
              Details and actions
            </Button>
            <Collapse expanded={detailsOpen} id={detailsId}>
              <Stack gap="md">
                {details}
                {actions}
              </Stack>
            </Collapse>
          </>
        ) : (
          <>
            {details}
            {actions}
          </>
        )}
      </Stack>
      <DocumentSettingsModal
        opened={settingsOpen}
        onClose={() => onSettingsOpen(false)}
        projectId={projectId}
        document={document}
      />
      <ArchivePolicyModal
        opened={confirmArchive}
        projectId={projectId}
        document={document}
        onConfirm={(replacedById) => void archiveNow(replacedById)}
        onCancel={() => setConfirmArchive(false)}
      />
    </Paper>
  );
}

interface PolicyTabProps {
  projectId: string;
  document: DocumentDetail;
  /** The version asked for in the query string (?version=), if any. */
  versionId: number | null;
  /** The query string named a version in a form no version has. */
  badVersion: boolean;
}

function PolicyTab({ projectId, document, versionId, badVersion }: PolicyTabProps) {
  const current = document.current_version;
  const draft = document.draft_version;
  // The document already carries the current and the working version with their text; others are fetched.
  const embedded = [current, draft].find((version) => version && version.id === versionId) ?? null;
  const fetched = useVersion(projectId, String(document.id), versionId !== null && !embedded ? versionId : null);

  if (badVersion) {
    return <VersionMissing projectId={projectId} documentId={document.id} />;
  }

  if (versionId !== null) {
    let version: PolicyVersion | null = embedded;
    if (!version) {
      if (fetched.isPending) {
        return <Skeleton height={240} radius="md" role="status" aria-label="Loading the version" />;
      }
      if (fetched.isError) {
        if (fetched.error instanceof ApiError && fetched.error.status === 404) {
          return <VersionMissing projectId={projectId} documentId={document.id} />;
        }
        return (
          <LoadFailure
            error={fetched.error}
            fallback="The version could not be loaded. Please try again."
            retrying={fetched.isFetching}
            onRetry={() => void fetched.refetch()}
          />
        );
      }
      version = fetched.data;
    }
    const isCurrent = current !== null && version.id === current.id;
    return (
      <Stack gap="md">
        {isCurrent ? (
          <VersionNote version={version} current />
        ) : (
          <Alert color="yellow" variant="light" title="Not the current version">
            <Stack gap={4}>
              <Text size="sm">
                You are reading {versionLabel(version)}
                {version.effective_on ? `, effective ${formatDayLong(version.effective_on)}` : ''}.{' '}
                {current ? 'Readers see the current version.' : 'This policy has no published version yet.'}
              </Text>
              {current && (
                <Anchor component={Link} to={documentPage(projectId, document.id)} size="sm" w="fit-content">
                  Show the current version
                </Anchor>
              )}
            </Stack>
          </Alert>
        )}
        <ContentPaper projectId={projectId} documentId={document.id} version={version} />
      </Stack>
    );
  }

  if (current) {
    return (
      <Stack gap="md">
        <VersionNote version={current} current />
        {draft && (
          <Text size="sm" c="dimmed">
            A new {VERSION_STATE_LABELS[draft.state].toLowerCase()} (version {draft.version}) is being prepared.{' '}
            <Anchor component={Link} to={documentPage(projectId, document.id, { version: String(draft.id) })}>
              Read version {draft.version}
            </Anchor>
          </Text>
        )}
        <ContentPaper projectId={projectId} documentId={document.id} version={current} />
      </Stack>
    );
  }

  if (draft) {
    return (
      <Stack gap="md">
        <VersionNote version={draft} current={false} />
        <ContentPaper projectId={projectId} documentId={document.id} version={draft} />
      </Stack>
    );
  }

  return (
    <Paper withBorder radius="md" p="lg">
      <Text c="dimmed">This policy has no published version yet.</Text>
    </Paper>
  );
}

function VersionNote({ version, current }: { version: PolicyVersion; current: boolean }) {
  return (
    <Text size="sm" c="dimmed">
      {current
        ? `Showing the current version: version ${version.version}${version.effective_on ? `, effective ${formatDayLong(version.effective_on)}` : ''}.`
        : `Showing ${VERSION_STATE_LABELS[version.state].toLowerCase()} version ${version.version}: not published yet, so readers do not see it.`}
    </Text>
  );
}

const SECTION_IDS = 'policy-section';

function ContentPaper({
  projectId,
  documentId,
  version,
}: {
  projectId: string;
  documentId: number;
  version: PolicyVersion;
}) {
  // A PDF kept as it is has no text of its own: what the portal read from it takes the text's place.
  const onlyPdf = version.source_file?.content_type === 'application/pdf' && isBlankHtml(version.content);
  return (
    <Stack gap="sm" miw={0}>
      <PolicyOutline html={version.content} prefix={SECTION_IDS} />
      {!onlyPdf && (
        <Paper withBorder radius="md" p={{ base: 'md', sm: 'xl' }} miw={0}>
          <PolicyContent html={version.content} label={`Text of version ${version.version}`} headingIds={SECTION_IDS} />
        </Paper>
      )}
      <VersionSourceText projectId={projectId} documentId={String(documentId)} version={version} />
    </Stack>
  );
}

function VersionMissing({ projectId, documentId }: { projectId: string; documentId: number }) {
  return (
    <Stack gap="sm" align="flex-start">
      <Alert color="yellow" variant="light" role="alert" w="100%">
        This version does not exist.
      </Alert>
      <Anchor component={Link} to={documentPage(projectId, documentId)} size="sm">
        Show the current version
      </Anchor>
    </Stack>
  );
}
