import './print.css';
import { Alert, Anchor, Button, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { type DocumentDetail, type PolicyVersion, VERSION_STATE_LABELS } from '@portal/shared';
import type { CSSProperties, ReactNode } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { NotFoundPage } from '../../../components/NotFoundPage';
import { LoadFailure } from '../../../components/page-parts';
import { PolicyContent } from '../../../components/policy/PolicyContent';
import { ApiError } from '../../../lib/api';
import { formatDateLong, formatDayLong } from '../../../lib/dates';
import { usePageTitle } from '../../../lib/use-page-title';
import { useDocument } from '../api/get-document';
import { useVersion } from '../api/get-version';
import { stableLinkUrl } from '../api/policy-links';
import { NOT_FOUND } from './DocumentPage';
import { DOCUMENT_ID, documentName, documentPage, versionIdParam } from './document-format';
import { usePolicyProjectId } from './use-policy-project';

/** The watermark's words: the en dash as the print layout shows it. */
export function notCurrentText(version: number): string {
  return `NOT CURRENT – version ${version}`;
}

function escapeXml(value: string): string {
  return value.replace(/[<>&'"]/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** One diagonal tile of the watermark, as a CSS background image. */
export function watermarkImage(text: string): string {
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="460" height="300" viewBox="0 0 460 300">` +
    `<text x="230" y="150" text-anchor="middle" dominant-baseline="middle" transform="rotate(-30 230 150)" ` +
    `font-family="Arial, Helvetica, sans-serif" font-size="28" font-weight="700" fill="#c92a2a" fill-opacity="0.14">` +
    `${escapeXml(text)}</text></svg>`;
  return `url("data:image/svg+xml,${encodeURIComponent(svg)}")`;
}

/**
 * /app/policy_management/{projectId}/documents/{documentId}/print?version={versionId}: one version laid out for
 * paper. Any version but the current published one carries a diagonal 'NOT CURRENT – version N' watermark, on
 * screen and in print; the portal around it is left out of print (print.css).
 */
export function DocumentPrintPage() {
  const { documentId = '' } = useParams();
  if (!DOCUMENT_ID.test(documentId)) return <NotFoundPage />;
  return <PrintDocument key={documentId} documentId={documentId} />;
}

function PrintDocument({ documentId }: { documentId: string }) {
  const projectId = usePolicyProjectId();
  const [params] = useSearchParams();
  const versionParam = params.get('version');
  const versionId = versionIdParam(versionParam);
  const document = useDocument(projectId, documentId);
  const doc = document.data;
  const embedded =
    doc && versionId !== null
      ? ([doc.current_version, doc.draft_version].find((version) => version?.id === versionId) ?? null)
      : null;
  const fetched = useVersion(projectId, documentId, doc && versionId !== null && !embedded ? versionId : null);

  let version: PolicyVersion | null = null;
  if (doc) {
    if (versionParam === null) version = doc.current_version ?? doc.draft_version;
    else version = embedded ?? fetched.data ?? null;
  }
  usePageTitle(doc ? `${documentName(doc)}${version ? ` – version ${version.version}` : ''}` : 'Print policy');

  let body: ReactNode;
  if (document.isPending || (doc && versionId !== null && !embedded && fetched.isPending)) {
    body = <Skeleton height={480} radius="md" role="status" aria-label="Loading the policy" />;
  } else if (doc && version) {
    body = <PrintSheet projectId={projectId} document={doc} version={version} />;
  } else {
    let problem: ReactNode;
    if (document.isError && document.error instanceof ApiError && document.error.status === 404) {
      problem = <Missing>{NOT_FOUND}</Missing>;
    } else if (document.isError) {
      problem = (
        <LoadFailure
          error={document.error}
          fallback="The policy could not be loaded. Please try again."
          retrying={document.isFetching}
          onRetry={() => void document.refetch()}
        />
      );
    } else if (fetched.isError && !(fetched.error instanceof ApiError && fetched.error.status === 404)) {
      problem = (
        <LoadFailure
          error={fetched.error}
          fallback="The version could not be loaded. Please try again."
          retrying={fetched.isFetching}
          onRetry={() => void fetched.refetch()}
        />
      );
    } else {
      problem = (
        <Missing>
          {versionParam === null ? 'This policy has no text to print yet.' : 'This version does not exist.'}
        </Missing>
      );
    }
    body = (
      <Stack gap="md">
        <Title order={1} fz={{ base: 'h3', sm: 'h2' }}>
          {doc ? documentName(doc) : 'Print policy'}
        </Title>
        {problem}
      </Stack>
    );
  }

  return (
    <Stack gap="md" w="100%" maw={1000} miw={0} className="policy-print-page">
      <Group justify="space-between" gap="sm" wrap="wrap" className="policy-print-hide">
        <Anchor component={Link} to={documentPage(projectId, documentId)} size="sm">
          ← Back to the policy
        </Anchor>
        <Button onClick={() => window.print()} disabled={!version}>
          Print
        </Button>
      </Group>
      {body}
    </Stack>
  );
}

function Missing({ children }: { children: ReactNode }) {
  return (
    <Alert color="yellow" variant="light" role="alert">
      {children}
    </Alert>
  );
}

/** The note every printed policy carries: paper is not kept up to date, the portal is. */
export const UNCONTROLLED_COPY = 'Printed copies are not controlled.';

function PrintSheet({
  projectId,
  document,
  version,
}: {
  projectId: string;
  document: DocumentDetail;
  version: PolicyVersion;
}) {
  const current = document.current_version;
  const isCurrent = current !== null && current.id === version.id && version.state === 'published';
  const watermark = notCurrentText(version.version);

  return (
    <article className="policy-print-sheet" aria-label={`${documentName(document)}, version ${version.version}`}>
      {!isCurrent && (
        <div
          className="policy-watermark"
          aria-hidden="true"
          data-watermark={watermark}
          style={{ '--policy-watermark': watermarkImage(watermark) } as CSSProperties}
        />
      )}
      <Stack gap="sm" className="policy-print-header" mb="lg" component="header">
        {!isCurrent && (
          <Text className="policy-print-not-current" w="fit-content">
            {watermark}
          </Text>
        )}
        <Stack gap={2}>
          {document.number && (
            <Text ff="monospace" fw={700} size="lg">
              {document.number}
            </Text>
          )}
          <Title order={1} fz={{ base: 'h3', sm: 'h2' }} style={{ overflowWrap: 'anywhere' }}>
            {document.title}
          </Title>
        </Stack>
        <dl className="policy-print-facts">
          <div>
            <dt>Department</dt>
            <dd>{document.department ? `${document.department.name} (${document.department.code})` : 'None'}</dd>
          </div>
          <div>
            <dt>Version</dt>
            <dd>
              {version.version} ({VERSION_STATE_LABELS[version.state]})
            </dd>
          </div>
          <div>
            <dt>Effective date</dt>
            <dd>{formatDayLong(version.effective_on, 'Not yet effective')}</dd>
          </div>
          {isCurrent && document.approved_at && (
            <div>
              <dt>Approved</dt>
              <dd>{formatDateLong(document.approved_at)}</dd>
            </div>
          )}
          <div>
            <dt>Next review</dt>
            <dd>{formatDayLong(document.next_review_on, 'Not set')}</dd>
          </div>
          {document.owner && (
            <div>
              <dt>Owner</dt>
              <dd>{document.owner.name}</dd>
            </div>
          )}
        </dl>
      </Stack>
      <PolicyContent html={version.content} />
      <Text component="footer" size="sm" c="dimmed" mt="lg" pt="sm" className="policy-print-footer">
        {UNCONTROLLED_COPY} Printed {formatDayLong(new Date().toISOString().slice(0, 10))}.
        {document.number && isCurrent
          ? ` The current version is always at ${stableLinkUrl(projectId, document.number)}`
          : ''}
      </Text>
    </article>
  );
}
