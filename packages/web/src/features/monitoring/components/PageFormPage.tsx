import { Button, Group, Select, Stack, Switch, Text, TextInput } from '@mantine/core';
import {
  PAGE_STATUSES,
  type PageCreate,
  type PageDetail,
  type PageStatus,
  type PageTree,
  type PageUpdate,
  pageNumberSchema,
} from '@portal/shared';
import { useMemo, useRef, useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { useLeaveWarning } from '../../../components/leave-warning';
import { ErrorNotice, LoadFailure, LoadingRows, PageHeading } from '../../../components/page-parts';
import { RichTextEditor } from '../../../components/RichTextEditor';
import { ApiError, messageFor } from '../../../lib/api';
import { fieldBinder } from '../../../lib/field-binding';
import { type FieldErrors, serverFieldErrors } from '../../../lib/field-errors';
import { usePageTitle } from '../../../lib/use-page-title';
import { usePage } from '../api/pages-detail';
import { usePageTree } from '../api/pages-list';
import { usePageOwnerCandidates } from '../api/pages-owner-candidates';
import { useCreatePage, useUpdatePage } from '../api/pages-save';
import { useUsedPageNumbers } from '../api/pages-used-numbers';
import { ConflictAlert, pageName, statusLabel, useMonitoringSections } from './pages-parts';
import { FormCard } from './submit-form';
import { monitoringRoute, useMonitoringProjectId } from './use-monitoring-project';

export const STALE_PAGE_TEXT = 'This page was changed by someone else. Reload it to see their changes.';

interface FormValues {
  title: string;
  parent: string | null;
  number: string;
  status: PageStatus;
  owner: string | null;
  restricted: boolean;
  introduction: string;
  benchmarks: string;
  parameters_and_metrics: string;
}
const FIELDS = [
  'title',
  'parent_id',
  'number',
  'status',
  'owner_id',
  'restricted',
  'introduction',
  'benchmarks',
  'parameters_and_metrics',
] as const;
type Field = (typeof FIELDS)[number];

function valuesOf(page: PageDetail): FormValues {
  return {
    title: page.title,
    parent: page.parent_id === null ? null : String(page.parent_id),
    number: page.number ?? '',
    status: page.status,
    owner: page.owner ? String(page.owner.id) : null,
    restricted: page.restricted,
    introduction: page.introduction,
    benchmarks: page.benchmarks,
    parameters_and_metrics: page.parameters_and_metrics,
  };
}

/** create-page (?parent=ID) and edit-page/{pageId}: the page's fields and its three rich-text sections. */
export function PageFormPage({ mode }: { mode: 'create' | 'edit' }) {
  const projectId = useMonitoringProjectId();
  const { pageId: raw } = useParams();
  const pageId = mode === 'edit' && raw && /^\d{1,10}$/.test(raw) ? Number(raw) : null;
  const [search] = useSearchParams();
  usePageTitle(mode === 'create' ? 'New page' : 'Edit page');
  const tree = usePageTree(projectId);
  const page = usePage(projectId, pageId);

  if (mode === 'edit' && (pageId === null || (page.error instanceof ApiError && page.error.status === 404))) {
    return (
      <Stack gap="sm" align="flex-start">
        <PageHeading title="Page not found" />
        <Text>This page does not exist, was deleted, or is not shared with you.</Text>
        <Button component={Link} to={monitoringRoute(projectId, 'pages')} variant="default">
          Back to the pages
        </Button>
      </Stack>
    );
  }
  const failed = tree.isError ? tree : mode === 'edit' && page.isError ? page : null;
  if (failed) {
    return (
      <LoadFailure
        error={failed.error}
        fallback="The page could not be loaded."
        retrying={failed.isFetching}
        onRetry={() => void failed.refetch()}
      />
    );
  }
  if (!tree.data || (mode === 'edit' && !page.data)) return <LoadingRows label="Loading the page" />;
  const parentParam = search.get('parent');
  const start: FormValues = page.data
    ? valuesOf(page.data)
    : {
        title: '',
        parent: parentParam && /^\d{1,10}$/.test(parentParam) ? parentParam : null,
        number: '',
        status: 'draft',
        owner: null,
        restricted: false,
        introduction: '',
        benchmarks: '',
        parameters_and_metrics: '',
      };
  return (
    <PageForm
      // A fresh form per page (the edit of another page starts from its own values).
      key={pageId ?? 'new'}
      projectId={projectId}
      mode={mode}
      page={page.data ?? null}
      start={start}
      tree={tree.data}
    />
  );
}

interface PageFormProps {
  projectId: string;
  mode: 'create' | 'edit';
  page: PageDetail | null;
  start: FormValues;
  tree: PageTree;
}

function PageForm({ projectId, mode, page, start, tree }: PageFormProps) {
  const navigate = useNavigate();
  const may = useMonitoringSections(projectId);
  const owners = usePageOwnerCandidates(projectId);
  const manual = tree.numbering_mode === 'manual';
  const used = useUsedPageNumbers(projectId, manual);
  const create = useCreatePage(projectId);
  const update = useUpdatePage(projectId, page?.id ?? 0);
  const [values, setValues] = useState<FormValues>(start);
  const [saved, setSaved] = useState<FormValues>(start);
  const [version, setVersion] = useState(page?.version ?? 0);
  const [errors, setErrors] = useState<FieldErrors<Field>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [conflict, setConflict] = useState<number | null>(null);
  const leaving = useRef(false);
  const saving = create.isPending || update.isPending;
  const dirty = JSON.stringify(values) !== JSON.stringify(saved);

  const set = <K extends keyof FormValues>(key: K, value: FormValues[K]) => {
    setValues((current) => ({ ...current, [key]: value }));
    const field = (key === 'parent' ? 'parent_id' : key === 'owner' ? 'owner_id' : key) as Field;
    setErrors((current) => ({ ...current, [field]: undefined }));
  };
  const bind = fieldBinder({ values, errors, change: set });

  // Parents: pages the user may edit, not at the deepest level; labelled by their place in the tree.
  const parentOptions = useMemo(() => {
    const options = tree.pages
      .filter((node) => node.abilities.edit && node.depth < tree.max_depth)
      .map((node) => ({ value: String(node.id), label: `${'— '.repeat(node.depth - 1)}${pageName(node)}` }));
    return may('page-levels') ? [{ value: '', label: 'None: a top-level page' }, ...options] : options;
  }, [tree, may]);
  const ownerOptions = (owners.data ?? []).map((person) => ({ value: String(person.id), label: person.name }));
  const canRestrict = mode === 'edit' ? page?.abilities.manage_permissions === true : may('page-permissions');

  // Manual numbers: the format and whether another page has it, as the user types.
  const numberProblem = (() => {
    if (!manual || values.number.trim() === '') return null;
    const parsed = pageNumberSchema.safeParse(values.number);
    if (!parsed.success) return parsed.error.issues[0]?.message ?? 'Use a dotted number such as 2.3.1.';
    const taken = (used.data ?? []).includes(parsed.data) && parsed.data !== (page?.number ?? null);
    return taken ? `Number ${parsed.data} is already used.` : null;
  })();

  const submit = () => {
    setFailure(null);
    setConflict(null);
    const title = values.title.trim();
    const problems: FieldErrors<Field> = {};
    if (!title) problems.title = 'Enter a title.';
    if (manual && !values.number.trim()) problems.number = 'Enter a number: this project numbers its pages by hand.';
    else if (numberProblem) problems.number = numberProblem;
    if (mode === 'create' && values.parent === null && !may('page-levels'))
      problems.parent_id = 'Choose a parent page.';
    if (Object.keys(problems).length > 0) {
      setErrors(problems);
      return;
    }
    const common = {
      title,
      status: values.status,
      owner_id: values.owner ? Number(values.owner) : null,
      introduction: values.introduction,
      benchmarks: values.benchmarks,
      parameters_and_metrics: values.parameters_and_metrics,
      ...(manual ? { number: values.number.trim() } : {}),
    };
    const done = (result: PageDetail) => {
      const next = valuesOf(result);
      setValues(next);
      setSaved(next);
      leaving.current = true;
      toast.success(mode === 'create' ? 'Page created' : 'Page saved');
      void navigate(monitoringRoute(projectId, `pages/page/${result.id}`));
    };
    const failed = (error: unknown) => {
      if (error instanceof ApiError && error.status === 409) {
        const current = serverFieldErrors(error, ['version']).version;
        setConflict(current ? Number(current) : version);
        return;
      }
      const fields = serverFieldErrors(error, FIELDS);
      setErrors(fields);
      if (Object.keys(fields).length === 0) setFailure(messageFor(error, 'The page could not be saved.'));
    };
    if (mode === 'create') {
      const body: PageCreate = {
        ...common,
        parent_id: values.parent ? Number(values.parent) : null,
        restricted: canRestrict ? values.restricted : false,
      };
      create.mutate(body, { onSuccess: done, onError: failed });
    } else {
      const body: PageUpdate = {
        ...common,
        version,
        ...(canRestrict ? { restricted: values.restricted } : {}),
      };
      update.mutate(body, { onSuccess: done, onError: failed });
    }
  };

  /** After a conflict: the latest version replaces what is in the form. */
  const pageQuery = usePage(projectId, page?.id ?? null);
  const reload = async () => {
    const fresh = (await pageQuery.refetch()).data;
    if (!fresh) {
      setFailure('The page could not be reloaded. Try again.');
      return;
    }
    const next = valuesOf(fresh);
    setValues(next);
    setSaved(next);
    setVersion(fresh.version);
    setConflict(null);
    setErrors({});
  };

  const blocker = useLeaveWarning(dirty && !leaving.current, 'this page');

  return (
    <Stack gap="md">
      <PageHeading title={mode === 'create' ? 'New page' : `Edit ${page ? pageName(page) : 'page'}`}>
        {mode === 'create'
          ? 'A domain, programme or indicator of the quality programme.'
          : 'Change the page and its sections; others see the changes once you save.'}
      </PageHeading>
      {conflict !== null && (
        <ConflictAlert
          onReload={() => void reload()}
          onKeep={() => {
            setVersion(conflict);
            setConflict(null);
          }}
        >
          <Text size="sm">{STALE_PAGE_TEXT}</Text>
          <Text size="sm">
            Your text is still in the form. Reload to see their version (your changes here are then replaced), or save
            yours over theirs.
          </Text>
        </ConflictAlert>
      )}
      <ErrorNotice message={failure} />
      <FormCard onSubmit={submit}>
        <Stack gap="md">
          <TextInput label="Title" withAsterisk {...bind.text('title')} maxLength={200} />
          {mode === 'create' ? (
            <Select
              label="Parent page"
              description={`The tree is at most ${tree.max_depth} levels deep.`}
              placeholder="Choose a page"
              data={parentOptions}
              value={values.parent ?? (may('page-levels') ? '' : null)}
              onChange={(value) => set('parent', value ? value : null)}
              searchable
              nothingFoundMessage="No page you may add to"
              error={errors.parent_id}
              allowDeselect={false}
            />
          ) : (
            <Text size="sm">
              <Text span fw={500}>
                Parent page:{' '}
              </Text>
              {page && page.ancestors.length > 0
                ? pageName(page.ancestors[page.ancestors.length - 1]!)
                : 'None (top level)'}
              <Text span c="dimmed">
                {' '}
                (move pages with Reorder)
              </Text>
            </Text>
          )}
          {manual && (
            <TextInput
              label="Number"
              withAsterisk
              description="This project numbers its pages by hand, e.g. 2.3.1."
              value={values.number}
              onChange={(event) => set('number', event.currentTarget.value)}
              error={errors.number ?? numberProblem ?? undefined}
            />
          )}
          <Group grow align="flex-start" wrap="wrap">
            <Select
              label="Status"
              data={PAGE_STATUSES.map((status) => ({ value: status, label: statusLabel(status) }))}
              {...bind.select('status')}
            />
            <Select
              label="Owner"
              placeholder={owners.isPending ? 'Loading people…' : 'No owner'}
              data={ownerOptions}
              value={values.owner}
              onChange={(value) => set('owner', value)}
              clearable
              searchable
              nothingFoundMessage="No monitoring user by that name"
              error={errors.owner_id ?? (owners.isError ? 'The people could not be loaded.' : undefined)}
            />
          </Group>
          {canRestrict && (
            <Switch
              label="Restricted"
              description="Only the people and roles granted access on this page (and administrators) see it and its sub-pages."
              {...bind.checked('restricted')}
            />
          )}
          <RichTextEditor label="Introduction" {...bind.value('introduction')} tables />
          <RichTextEditor label="Benchmarks" {...bind.value('benchmarks')} tables />
          <RichTextEditor label="Parameters and metrics" {...bind.value('parameters_and_metrics')} tables />
          <Group gap="sm">
            <Button type="submit" loading={saving}>
              Save
            </Button>
            <Button
              component={Link}
              to={page ? monitoringRoute(projectId, `pages/page/${page.id}`) : monitoringRoute(projectId, 'pages')}
              variant="default"
            >
              Cancel
            </Button>
          </Group>
        </Stack>
      </FormCard>
      {blocker}
    </Stack>
  );
}
