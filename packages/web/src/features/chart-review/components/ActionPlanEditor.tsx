import {
  Button,
  Checkbox,
  Fieldset,
  Group,
  NumberInput,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { CR_FINDING_LIMITS, type CrActionPlanInput, type CrFinding } from '@portal/shared';
import { type FormEvent, useState } from 'react';
import { toast } from 'sonner';
import { ConfirmActionModal } from '../../../components/ConfirmActionModal';
import { ErrorNotice } from '../../../components/page-parts';
import { ApiError, messageFor } from '../../../lib/api';
import { formatDate } from '../../../lib/dates';
import { useFindingMeasures, useSavePlan } from '../api/findings';
import { useCrPeople } from '../api/people';
import { CR_ROLE_LABELS } from './cr-parts';
import { numberOf } from './percent';

interface ActionRow {
  /** Stable React key of the row (rows move when one above is removed). */
  key: number;
  what: string;
  owner_id: string | null;
  due: string;
  done_at: string | null;
}

interface PlanForm {
  root_cause: string;
  actions: ActionRow[];
  measure_id: string | null;
  success_periods: number | string;
}

type Errors = Record<string, string>;

let nextRowKey = 1;

function toForm(finding: CrFinding): PlanForm {
  const plan = finding.action_plan;
  return {
    root_cause: plan.root_cause,
    actions: plan.actions.map((a) => ({
      key: nextRowKey++,
      what: a.what,
      owner_id: String(a.owner_id),
      due: a.due,
      done_at: a.done_at,
    })),
    measure_id: plan.measure_id === null ? null : String(plan.measure_id),
    success_periods: plan.success_periods,
  };
}

/** The body to send, or the messages the form can give before asking the server. */
function toInput(values: PlanForm): { input: CrActionPlanInput } | { errors: Errors } {
  const errors: Errors = {};
  values.actions.forEach((row, index) => {
    if (row.what.trim() === '') errors[`actions.${index}.what`] = 'Say what will be done.';
    if (row.owner_id === null) errors[`actions.${index}.owner_id`] = 'Choose who owns this action.';
    if (!/^\d{4}-\d{2}-\d{2}$/.test(row.due)) errors[`actions.${index}.due`] = 'Enter a due date.';
  });
  const periods = numberOf(values.success_periods);
  if (periods === undefined || !Number.isInteger(periods) || periods < 1 || periods > 24)
    errors.success_periods = 'Success needs 1 to 24 periods in a row.';
  if (Object.keys(errors).length > 0) return { errors };
  return {
    input: {
      root_cause: values.root_cause,
      actions: values.actions.map((row) => ({
        what: row.what,
        owner_id: Number(row.owner_id),
        due: row.due,
        done_at: row.done_at,
      })),
      measure_id: values.measure_id === null ? null : Number(values.measure_id),
      success_periods: periods as number,
    },
  };
}

/** The server's field messages (`actions.2.owner_id`, `measure_id`...), the first of each. */
function serverErrors(error: unknown): Errors {
  if (!(error instanceof ApiError) || error.status !== 400) return {};
  const body = (error.body as { errors?: unknown } | null)?.errors;
  if (!body || typeof body !== 'object') return {};
  const errors: Errors = {};
  for (const [path, value] of Object.entries(body as Record<string, unknown>)) {
    const message = Array.isArray(value) ? value[0] : value;
    if (typeof message === 'string' && !errors[path]) errors[path] = message;
  }
  return errors;
}

/**
 * The corrective action plan of a finding: root cause, actions (what, owner, due date, done), the monitoring
 * measure that follows the improvement and the number of periods the success rule needs. Read-only without the
 * findings section or once the finding is closed.
 */
export function ActionPlanEditor({
  projectId,
  finding,
  readOnly,
}: {
  projectId: string;
  finding: CrFinding;
  readOnly: boolean;
}) {
  const [values, setValues] = useState<PlanForm>(() => toForm(finding));
  const [errors, setErrors] = useState<Errors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [removing, setRemoving] = useState<number | null>(null);
  const people = useCrPeople(projectId);
  const measures = useFindingMeasures(projectId, !readOnly);
  const save = useSavePlan(projectId, finding.id);

  const ownerOptions = (people.data ?? []).map((p) => ({
    value: String(p.id),
    label: `${p.name} (${CR_ROLE_LABELS[p.role]})`,
  }));
  for (const action of finding.action_plan.actions) {
    if (action.owner && !ownerOptions.some((o) => o.value === String(action.owner_id)))
      ownerOptions.push({ value: String(action.owner_id), label: action.owner.name });
  }
  const measureOptions = (measures.data ?? []).map((m) => ({ value: String(m.id), label: `${m.name} (${m.page})` }));
  if (finding.measure && !measureOptions.some((o) => o.value === String(finding.measure?.id)))
    measureOptions.push({ value: String(finding.measure.id), label: finding.measure.name });

  function change(next: Partial<PlanForm>, clear: string[] = []) {
    setValues((current) => ({ ...current, ...next }));
    if (clear.length > 0)
      setErrors((current) => Object.fromEntries(Object.entries(current).filter(([k]) => !clear.includes(k))));
  }

  function changeRow(index: number, next: Partial<ActionRow>, field: keyof ActionRow) {
    setValues((current) => ({
      ...current,
      actions: current.actions.map((row, i) => (i === index ? { ...row, ...next } : row)),
    }));
    setErrors((current) => {
      const { [`actions.${index}.${field}`]: _gone, ...rest } = current;
      return rest;
    });
  }

  function addRow() {
    change({ actions: [...values.actions, { key: nextRowKey++, what: '', owner_id: null, due: '', done_at: null }] }, [
      'actions',
    ]);
  }

  function removeRow(index: number) {
    // Messages of the rows below move up with them: the simplest honest answer is to drop the rows' messages.
    setValues((current) => ({ ...current, actions: current.actions.filter((_, i) => i !== index) }));
    setErrors((current) => Object.fromEntries(Object.entries(current).filter(([k]) => !k.startsWith('actions'))));
    setRemoving(null);
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    setFailure(null);
    const checked = toInput(values);
    if ('errors' in checked) {
      setErrors(checked.errors);
      setFailure('Some fields need attention. See the messages at the fields.');
      return;
    }
    setErrors({});
    try {
      const stored = await save.mutateAsync(checked.input);
      setValues(toForm(stored));
      toast.success('Action plan saved.');
    } catch (error) {
      const fields = serverErrors(error);
      setErrors(fields);
      setFailure(
        Object.keys(fields).length > 0
          ? 'Some fields need attention. See the messages at the fields.'
          : messageFor(error, 'The action plan could not be saved. Please try again.'),
      );
    }
  }

  const removingRow = removing === null ? null : values.actions[removing];
  return (
    <form onSubmit={(event) => void submit(event)} noValidate aria-label="Action plan">
      <Fieldset legend="Action plan" radius="md" disabled={readOnly}>
        <Stack gap="md">
          <Textarea
            label="Root cause"
            description="Why the result fell short, in a few sentences. No patient names or record numbers."
            resize="vertical"
            rows={3}
            maxLength={CR_FINDING_LIMITS.rootCause}
            value={values.root_cause}
            onChange={(event) => change({ root_cause: event.currentTarget.value }, ['root_cause'])}
            error={errors.root_cause}
            readOnly={readOnly}
          />
          <Stack gap="sm">
            <Text fw={700} id="plan-actions">
              Actions
            </Text>
            {errors.actions && (
              <Text c="red.9" size="sm" role="alert">
                {errors.actions}
              </Text>
            )}
            {values.actions.length === 0 && (
              <Text c="dimmed">No actions yet. A finding moves to "Action plan" once its plan has an action.</Text>
            )}
            <Stack gap="sm" component="ol" m={0} p={0} style={{ listStyle: 'none' }} aria-labelledby="plan-actions">
              {values.actions.map((row, index) => (
                <Paper component="li" key={row.key} withBorder radius="sm" p="sm">
                  <Stack gap="sm">
                    <TextInput
                      label={`Action ${index + 1}`}
                      required
                      maxLength={CR_FINDING_LIMITS.what}
                      value={row.what}
                      onChange={(event) => changeRow(index, { what: event.currentTarget.value }, 'what')}
                      error={errors[`actions.${index}.what`]}
                      readOnly={readOnly}
                    />
                    <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
                      <Select
                        label={`Owner of action ${index + 1}`}
                        required
                        placeholder="Choose a person"
                        data={ownerOptions}
                        value={row.owner_id}
                        onChange={(value) => changeRow(index, { owner_id: value }, 'owner_id')}
                        error={errors[`actions.${index}.owner_id`]}
                        searchable
                        readOnly={readOnly}
                      />
                      <TextInput
                        type="date"
                        label={`Due date of action ${index + 1}`}
                        required
                        value={row.due}
                        onChange={(event) => changeRow(index, { due: event.currentTarget.value }, 'due')}
                        error={errors[`actions.${index}.due`]}
                        readOnly={readOnly}
                      />
                      <Stack gap={4} justify="flex-end">
                        <Checkbox
                          label={`Action ${index + 1} done`}
                          checked={row.done_at !== null}
                          onChange={(event) =>
                            changeRow(
                              index,
                              { done_at: event.currentTarget.checked ? new Date().toISOString() : null },
                              'done_at',
                            )
                          }
                          error={errors[`actions.${index}.done_at`]}
                          readOnly={readOnly}
                        />
                        {row.done_at && (
                          <Text size="sm" c="dimmed">
                            Done {formatDate(row.done_at)}
                          </Text>
                        )}
                      </Stack>
                    </SimpleGrid>
                    {!readOnly && (
                      <Group justify="flex-end">
                        <Button variant="subtle" color="red.8" onClick={() => setRemoving(index)}>
                          Remove action {index + 1}
                        </Button>
                      </Group>
                    )}
                  </Stack>
                </Paper>
              ))}
            </Stack>
            {!readOnly && (
              <Group>
                <Button
                  variant="default"
                  onClick={addRow}
                  disabled={values.actions.length >= CR_FINDING_LIMITS.actions}
                >
                  Add action
                </Button>
              </Group>
            )}
          </Stack>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            <Select
              label="Monitoring measure"
              description="The measure that shows whether the improvement holds. Without one, this finding’s own compliance in later periods is used."
              placeholder="No measure"
              data={measureOptions}
              value={values.measure_id}
              onChange={(value) => change({ measure_id: value }, ['measure_id'])}
              error={errors.measure_id}
              clearable
              searchable
              readOnly={readOnly}
            />
            <NumberInput
              label="Success periods"
              description="Complete periods in a row at or beyond the programme target that count as success."
              min={1}
              max={24}
              allowDecimal={false}
              value={values.success_periods}
              onChange={(value) => change({ success_periods: value }, ['success_periods'])}
              error={errors.success_periods}
              readOnly={readOnly}
            />
          </SimpleGrid>
          <ErrorNotice message={failure} />
          {!readOnly && (
            <Group>
              <Button type="submit" loading={save.isPending}>
                Save plan
              </Button>
            </Group>
          )}
        </Stack>
      </Fieldset>
      <ConfirmActionModal
        opened={removing !== null}
        title="Remove this action?"
        message={`"${removingRow?.what || `Action ${(removing ?? 0) + 1}`}" leaves the plan when you save it.`}
        confirmLabel="Remove action"
        danger
        onConfirm={() => removing !== null && removeRow(removing)}
        onCancel={() => setRemoving(null)}
      />
    </form>
  );
}
