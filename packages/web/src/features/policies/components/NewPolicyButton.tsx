import { Button, Group, Modal, Select, Stack, TextInput } from '@mantine/core';
import { numberProblem, POLICY_TITLE_MAX, permissionKey } from '@portal/shared';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router';
import { LimitedTextInput, lengthProblem } from '../../../components/form-parts/LimitedTextInput';
import { ErrorNotice } from '../../../components/page-parts';
import { messageFor } from '../../../lib/api';
import { type FieldErrors, serverFieldErrors } from '../../../lib/field-errors';
import { myPermissionsQueryOptions } from '../../../lib/permissions';
import { useCreateDocument } from '../api/create-document';
import { useDepartments } from '../api/get-departments';
import { useNumbering } from '../api/get-numbering';
import { departmentSelectData } from './browse-ui';
import { documentEditPage } from './document-format';
import { usePolicyProjectId } from './use-policy-project';

type Field = 'title' | 'number' | 'department_id';
const FIELDS: Field[] = ['title', 'number', 'department_id'];

/**
 * "New policy": a blank draft with a title (number and department optional), then straight into the editor. Shown
 * to those whose role may write drafts (section edit-documents); the server checks again.
 */
export function NewPolicyButton() {
  const projectId = usePolicyProjectId();
  const permissions = useQuery(myPermissionsQueryOptions('policy_management', projectId));
  const [open, setOpen] = useState(false);
  if (!permissions.data?.[permissionKey('policy_management', 'edit-documents')]) return null;
  return (
    <>
      <Button onClick={() => setOpen(true)}>New policy</Button>
      <Modal opened={open} onClose={() => setOpen(false)} title="New policy" centered>
        {open && <NewPolicyForm projectId={projectId} onCancel={() => setOpen(false)} />}
      </Modal>
    </>
  );
}

function NewPolicyForm({ projectId, onCancel }: { projectId: string; onCancel: () => void }) {
  const navigate = useNavigate();
  const create = useCreateDocument(projectId);
  const departments = useDepartments(projectId);
  const numbering = useNumbering(projectId);
  const [title, setTitle] = useState('');
  const [number, setNumber] = useState('');
  const [departmentId, setDepartmentId] = useState<string | null>(null);
  const [errors, setErrors] = useState<FieldErrors<Field>>({});
  const [failure, setFailure] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const department = departments.data?.find((d) => String(d.id) === departmentId);
    const found: FieldErrors<Field> = {};
    if (!title.trim()) found.title = 'Enter the title.';
    const long = lengthProblem(title, POLICY_TITLE_MAX);
    if (long) found.title = long;
    const problem =
      number.trim() && numbering.data ? numberProblem(number.trim(), numbering.data.scheme, department?.code) : null;
    if (problem) found.number = problem;
    setErrors(found);
    setFailure(null);
    if (Object.keys(found).length) return;
    create.mutate(
      { title: title.trim(), number: number.trim() || null, department_id: department ? department.id : null },
      {
        onSuccess: (document) => navigate(documentEditPage(projectId, document.id)),
        onError: (error) => {
          const fieldErrors = serverFieldErrors(error, FIELDS);
          setErrors(fieldErrors);
          if (Object.keys(fieldErrors).length === 0) setFailure(messageFor(error, 'The policy could not be created.'));
        },
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <LimitedTextInput
          label="Title"
          required
          limit={POLICY_TITLE_MAX}
          value={title}
          onChange={(event) => {
            setTitle(event.currentTarget.value);
            // The message described the title that was there.
            setErrors(({ title: _, ...rest }) => rest);
          }}
          error={errors.title}
          data-autofocus
        />
        <TextInput
          label="Number"
          description="Optional; it can be assigned later under Numbering."
          maxLength={40}
          value={number}
          onChange={(event) => setNumber(event.currentTarget.value)}
          error={errors.number}
        />
        <Select
          label="Department"
          placeholder="No department"
          clearable
          data={departmentSelectData(departments.data ?? [])}
          value={departmentId}
          onChange={setDepartmentId}
          error={errors.department_id}
        />
        <ErrorNotice message={failure} />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" loading={create.isPending}>
            Create and edit
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
