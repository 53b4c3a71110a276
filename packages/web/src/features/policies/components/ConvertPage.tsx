import {
  Alert,
  Box,
  Button,
  FileButton,
  Group,
  List,
  Loader,
  Progress,
  Select,
  Stack,
  Text,
  TextInput,
  Title,
  Typography,
} from '@mantine/core';
import {
  newPolicyParent,
  nextNumber,
  numberProblem,
  POLICY_UPLOAD_MAX_BYTES,
  POLICY_UPLOAD_TYPES,
} from '@portal/shared';
import { type DragEvent, type FormEvent, type ReactNode, useEffect, useMemo, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { ErrorNotice, PageHeading, SectionCard } from '../../../components/page-parts';
import { ApiError } from '../../../lib/api';
import { type FieldErrors, serverFieldErrors } from '../../../lib/field-errors';
import { sanitizeHtml } from '../../../lib/sanitize';
import { usePageTitle } from '../../../lib/use-page-title';
import { type ConvertResult, convertDocument } from '../api/convert-document';
import { useDepartments } from '../api/get-departments';
import { useNumbering } from '../api/get-numbering';
import { chapterOf, useUsedNumbers } from '../api/get-used-numbers';
import { useUploadDocument } from '../api/upload-document';
import { departmentSelectData } from './browse-ui';
import { policyRoute, usePolicyProjectId } from './use-policy-project';

export const LIMITS = 'Word (.docx) or PDF, up to 10 MB';
export const WRONG_TYPE = 'Choose a Word (.docx) or PDF file.';
export const TOO_BIG = 'The file is larger than 10 MB.';
export const EMPTY_FILE = 'The file is empty.';
export const PDF_NOTE =
  'A PDF is not converted: the draft keeps the PDF as its source file, and readers open the PDF itself. You can write a summary in the draft later.';
export const TAKEN = 'This number is already used.';
const ACCEPT = ['.docx', '.pdf', POLICY_UPLOAD_TYPES.docx, POLICY_UPLOAD_TYPES.pdf].join(',');

type Kind = 'docx' | 'pdf';
interface Chosen {
  file: File;
  kind: Kind;
  /** Idempotency-Key of this file's upload: made once when the file is chosen, sent again on every retry. */
  key: string;
}

type Conversion =
  | { state: 'idle' }
  | { state: 'uploading'; progress: number }
  | { state: 'converting' }
  | { state: 'done'; result: ConvertResult }
  | { state: 'failed'; message: string };

const FIELDS = ['title', 'number', 'department_id', 'file'] as const;
type Field = (typeof FIELDS)[number];

/** A random v4 UUID; crypto.randomUUID exists only in secure contexts, so there is a fallback. */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

function kindOf(file: File): Kind | null {
  const name = file.name.toLowerCase();
  if (name.endsWith('.docx')) return 'docx';
  if (name.endsWith('.pdf')) return 'pdf';
  return null;
}

function titleFromName(name: string): string {
  return name
    .replace(/\.[^.]+$/, '')
    .replace(/[_]+/g, ' ')
    .trim()
    .slice(0, 200);
}

function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

function failureText(error: unknown, fallback: string): string {
  return error instanceof ApiError ? error.message : fallback;
}

/** /app/policy_management/{projectId}/convert: a Word document or a PDF becomes a new draft policy. */
export function ConvertPage() {
  usePageTitle('Import a Word document');
  const projectId = usePolicyProjectId();
  const [chosen, setChosen] = useState<Chosen | null>(null);
  const [pickError, setPickError] = useState<string | null>(null);
  const [conversion, setConversion] = useState<Conversion>({ state: 'idle' });
  const [dragging, setDragging] = useState(false);
  /** While a draft uploads, the file cannot change. */
  const [saving, setSaving] = useState(false);
  const [title, setTitle] = useState('');
  const titleTouched = useRef(false);
  const running = useRef<AbortController | null>(null);

  useEffect(() => () => running.current?.abort(), []);

  function runConversion(file: File) {
    running.current?.abort();
    const controller = new AbortController();
    running.current = controller;
    setConversion({ state: 'uploading', progress: 0 });
    convertDocument(projectId, file, {
      signal: controller.signal,
      onProgress: (fraction) => {
        if (controller.signal.aborted) return;
        setConversion(fraction >= 1 ? { state: 'converting' } : { state: 'uploading', progress: fraction });
      },
    }).then(
      (result) => {
        if (controller.signal.aborted) return;
        setConversion({ state: 'done', result });
        if (!titleTouched.current && result.title.trim()) setTitle(result.title.trim().slice(0, 200));
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        setConversion({
          state: 'failed',
          message: failureText(error, 'The document could not be converted. Please try again.'),
        });
      },
    );
  }

  function choose(file: File | null) {
    if (!file || saving) return;
    const kind = kindOf(file);
    const problem = !kind
      ? WRONG_TYPE
      : file.size > POLICY_UPLOAD_MAX_BYTES
        ? TOO_BIG
        : file.size === 0
          ? EMPTY_FILE
          : null;
    if (problem || !kind) {
      setPickError(problem);
      return;
    }
    running.current?.abort();
    setPickError(null);
    setChosen({ file, kind, key: newIdempotencyKey() });
    titleTouched.current = false;
    setTitle(titleFromName(file.name));
    if (kind === 'docx') runConversion(file);
    else setConversion({ state: 'idle' });
  }

  function drop(event: DragEvent<HTMLDivElement>) {
    event.preventDefault();
    setDragging(false);
    choose(event.dataTransfer.files[0] ?? null);
  }

  const ready = chosen && (chosen.kind === 'pdf' || conversion.state === 'done');

  return (
    <Stack gap="lg" w="100%" maw={1100}>
      <PageHeading title="Import a Word document">
        Turn a Word document or a PDF into a draft policy. Nothing is published: the draft goes through review as usual.
      </PageHeading>
      <SectionCard id="file-heading" title="1. Choose the file">
        <Box
          onDragOver={(event) => {
            event.preventDefault();
            setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={drop}
          p={{ base: 'md', sm: 'xl' }}
          data-testid="drop-zone"
          style={{
            border: `2px dashed var(--mantine-color-${dragging ? 'blue-6' : 'gray-4'})`,
            borderRadius: 'var(--mantine-radius-md)',
            background: dragging ? 'var(--mantine-color-blue-0)' : 'var(--mantine-color-gray-0)',
            textAlign: 'center',
          }}
        >
          <Stack gap="xs" align="center">
            <Text fw={500}>Drag a file here, or choose one</Text>
            <Text size="sm" c="dimmed" data-testid="limits">
              {LIMITS}
            </Text>
            <FileButton onChange={choose} accept={ACCEPT} disabled={saving}>
              {(props) => (
                <Button {...props} variant={chosen ? 'default' : 'filled'} disabled={saving}>
                  {chosen ? 'Choose another file' : 'Choose a file'}
                </Button>
              )}
            </FileButton>
            {chosen && (
              <Text size="sm" data-testid="chosen-file" style={{ overflowWrap: 'anywhere' }}>
                {chosen.file.name} ({formatSize(chosen.file.size)})
              </Text>
            )}
          </Stack>
        </Box>
        <ErrorNotice message={pickError} />
      </SectionCard>

      {chosen?.kind === 'docx' && <ConversionCard conversion={conversion} onRetry={() => runConversion(chosen.file)} />}
      {chosen?.kind === 'pdf' && (
        <Alert color="blue" variant="light" title="PDF files are kept as they are" data-testid="pdf-note">
          {PDF_NOTE}
        </Alert>
      )}

      {ready && (
        <SaveForm
          // A new file starts a new form (and a new idempotency key).
          key={chosen.key}
          projectId={projectId}
          chosen={chosen}
          title={title}
          onTitle={(value) => {
            titleTouched.current = true;
            setTitle(value);
          }}
          onFileError={setPickError}
          onSaving={setSaving}
        />
      )}
    </Stack>
  );
}

function ConversionCard({ conversion, onRetry }: { conversion: Conversion; onRetry: () => void }) {
  const html = useMemo(() => (conversion.state === 'done' ? sanitizeHtml(conversion.result.html) : ''), [conversion]);
  let body: ReactNode = null;
  if (conversion.state === 'uploading') {
    const percent = Math.round(conversion.progress * 100);
    body = (
      <Stack gap={6} role="status" aria-label="Uploading the document">
        <Progress value={percent} aria-label="Upload progress" data-testid="convert-progress" />
        <Text size="sm">Uploading… {percent}%</Text>
      </Stack>
    );
  } else if (conversion.state === 'converting') {
    body = (
      <Group gap="sm" role="status" aria-label="Converting the document">
        <Loader size="sm" />
        <Text>Converting…</Text>
      </Group>
    );
  } else if (conversion.state === 'failed') {
    body = (
      <Stack gap="sm" align="flex-start">
        <Alert color="red" variant="light" role="alert" w="100%">
          {conversion.message}
        </Alert>
        <Button variant="default" onClick={onRetry}>
          Try again
        </Button>
      </Stack>
    );
  } else if (conversion.state === 'done') {
    const { messages, images } = conversion.result;
    body = (
      <Stack gap="md">
        <Box
          mah="24rem"
          p="md"
          tabIndex={0}
          role="region"
          aria-label="Converted text"
          data-testid="preview"
          style={{
            overflow: 'auto',
            border: '1px solid var(--mantine-color-gray-4)',
            borderRadius: 'var(--mantine-radius-sm)',
          }}
        >
          {html.trim() ? (
            // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised just above with the SPEC policy
            <Typography dangerouslySetInnerHTML={{ __html: html }} />
          ) : (
            <Text c="dimmed">The document has no text.</Text>
          )}
        </Box>
        {images > 0 && (
          <Text size="sm">
            {images} {images === 1 ? 'image was' : 'images were'} kept.
          </Text>
        )}
        <Stack gap="xs">
          <Title order={3} fz="h5">
            What could not be carried over
          </Title>
          {messages.length > 0 ? (
            <List size="sm" data-testid="convert-messages">
              {messages.map((message, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: the same message may appear twice
                <List.Item key={index}>{message}</List.Item>
              ))}
            </List>
          ) : (
            <Text size="sm">Nothing: everything was carried over.</Text>
          )}
        </Stack>
      </Stack>
    );
  }
  return (
    <SectionCard id="preview-heading" title="2. Check the converted text">
      {body}
    </SectionCard>
  );
}

interface SaveFormProps {
  projectId: string;
  chosen: Chosen;
  title: string;
  onTitle: (value: string) => void;
  onFileError: (message: string | null) => void;
  onSaving: (saving: boolean) => void;
}

function SaveForm({ projectId, chosen, title, onTitle, onFileError, onSaving }: SaveFormProps) {
  const navigate = useNavigate();
  const departments = useDepartments(projectId);
  const numbering = useNumbering(projectId);
  const used = useUsedNumbers(projectId);
  const upload = useUploadDocument(projectId);
  const [departmentId, setDepartmentId] = useState<string | null>(null);
  const [number, setNumber] = useState('');
  const [errors, setErrors] = useState<FieldErrors<Field>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const running = useRef<AbortController | null>(null);

  // Leaving the page stops the upload (nothing then jumps to the new draft later).
  useEffect(() => () => running.current?.abort(), []);

  const options = useMemo(() => departmentSelectData(departments.data ?? []), [departments.data]);
  const departmentCode =
    departmentId === null ? null : (departments.data?.find((item) => String(item.id) === departmentId)?.code ?? null);
  const scheme = numbering.data?.scheme;

  function suggest() {
    if (!scheme || !used.data) return;
    const department =
      departmentId === null ? null : { code: departmentCode, chapter: chapterOf(used.data, Number(departmentId)) };
    setNumber(nextNumber(used.data.numbers, newPolicyParent(scheme, department)));
    setErrors((previous) => ({ ...previous, number: undefined }));
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (upload.isPending) return;
    setFailure(null);
    const found: FieldErrors<Field> = {};
    const cleanTitle = title.trim();
    const cleanNumber = number.trim();
    if (!cleanTitle) found.title = 'Enter the title.';
    else if (cleanTitle.length > 200) found.title = 'Title must be at most 200 characters.';
    if (cleanNumber && scheme) {
      const problem = numberProblem(cleanNumber, scheme, departmentCode);
      if (problem) found.number = problem;
      else if (used.data?.numbers.includes(cleanNumber)) found.number = TAKEN;
    }
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    onFileError(null);
    setProgress(0);
    const controller = new AbortController();
    running.current = controller;
    onSaving(true);
    try {
      const document = await upload.mutateAsync({
        file: chosen.file,
        title: cleanTitle,
        number: cleanNumber || undefined,
        department_id: departmentId === null ? undefined : Number(departmentId),
        idempotencyKey: chosen.key,
        onProgress: setProgress,
        signal: controller.signal,
      });
      toast.success('Draft saved.');
      navigate(policyRoute(projectId, `documents/${document.id}`));
    } catch (error) {
      if (controller.signal.aborted) return;
      setProgress(null);
      const fields = serverFieldErrors(error, FIELDS);
      setErrors({ title: fields.title, number: fields.number, department_id: fields.department_id });
      if (fields.file) onFileError(fields.file);
      if (!fields.title && !fields.number && !fields.department_id && !fields.file) {
        setFailure(failureText(error, 'The draft could not be saved. Please try again.'));
      }
    } finally {
      if (!controller.signal.aborted) onSaving(false);
    }
  }

  const percent = progress === null ? 0 : Math.round(progress * 100);
  return (
    <SectionCard id="save-heading" title={chosen.kind === 'docx' ? '3. Save as a draft' : '2. Save as a draft'}>
      <form onSubmit={submit} noValidate aria-labelledby="save-heading">
        <Stack gap="md" maw={560}>
          <ErrorNotice message={failure} />
          <TextInput
            label="Title"
            required
            value={title}
            onChange={(event) => {
              onTitle(event.currentTarget.value);
              setErrors((previous) => ({ ...previous, title: undefined }));
            }}
            error={errors.title}
            maxLength={200}
          />
          <Select
            label="Department"
            placeholder={departments.isPending ? 'Loading the departments…' : 'No department'}
            description={
              departments.isError ? 'The departments could not be loaded; you can set one later.' : undefined
            }
            data={options}
            value={departmentId}
            onChange={(value) => {
              setDepartmentId(value);
              setErrors((previous) => ({ ...previous, department_id: undefined, number: undefined }));
            }}
            error={errors.department_id}
            clearable
            searchable
            nothingFoundMessage="No department matches"
            disabled={departments.isPending}
          />
          <TextInput
            label="Number"
            description="Optional: leave it empty to number the policy later."
            value={number}
            onChange={(event) => {
              setNumber(event.currentTarget.value);
              setErrors((previous) => ({ ...previous, number: undefined }));
            }}
            error={errors.number}
            autoComplete="off"
            rightSectionWidth={96}
            rightSectionPointerEvents="all"
            rightSection={
              <Button
                variant="light"
                size="compact-sm"
                onClick={suggest}
                disabled={!scheme || !used.data}
                title="Suggest the next free number"
              >
                Suggest
              </Button>
            }
          />
          {progress !== null && (
            <Stack gap={6} role="status" aria-label="Saving the draft">
              <Progress value={percent} aria-label="Upload progress" data-testid="upload-progress" />
              <Text size="sm">{progress >= 1 ? 'Saving the draft…' : `Uploading… ${percent}%`}</Text>
            </Stack>
          )}
          <Group>
            <Button type="submit" loading={upload.isPending}>
              Save as draft
            </Button>
          </Group>
        </Stack>
      </form>
    </SectionCard>
  );
}
