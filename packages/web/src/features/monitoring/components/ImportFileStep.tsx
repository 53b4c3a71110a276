import { Checkbox, Group, Radio, Select, Stack, Text } from '@mantine/core';
import { DATE_FORMATS, type DateFormat, type ImportDetected } from '@portal/shared';
import type { Encoding, ImportDraft } from './import-draft';
import { AMBIGUOUS_DATES, DATE_FORMAT_LABELS, DELIMITER_LABELS, ENCODING_LABELS } from './import-parts';

const ENCODINGS = Object.keys(ENCODING_LABELS) as Encoding[];

/** Step 2: how the file is read (separator, encoding, header line) and how its dates are written. */
export function ImportFileStep({
  detected,
  draft,
  onLayout,
  onChange,
}: {
  detected: ImportDetected;
  draft: ImportDraft;
  /** A new separator or header setting: the columns are read again. */
  onLayout: (delimiter: string, hasHeader: boolean) => void;
  onChange: (patch: Partial<ImportDraft>) => void;
}) {
  const delimiters = Object.entries(DELIMITER_LABELS).map(([value, label]) => ({ value, label }));
  if (!(detected.delimiter in DELIMITER_LABELS)) {
    delimiters.push({ value: detected.delimiter, label: `“${detected.delimiter}”` });
  }
  const ambiguous = detected.date_format === null && detected.date_format_choices.length > 1;
  const timeColumn = detected.columns.find((column) => column.key === detected.time_column);
  const examples = timeColumn
    ? [...new Set(detected.sample.map((row) => row[timeColumn.source]?.trim() ?? '').filter(Boolean))].slice(0, 4)
    : [];
  const relaid = draft.delimiter !== detected.delimiter || draft.has_header !== detected.has_header;

  return (
    <Stack gap="md">
      <Text size="sm">
        These settings were detected in the file. Change one only when the columns on the next step look wrong.
      </Text>
      <Group grow align="flex-start" wrap="wrap" gap="md">
        <Select
          label="Column separator"
          required
          allowDeselect={false}
          data={delimiters}
          value={draft.delimiter}
          onChange={(value) => value && onLayout(value, draft.has_header)}
          miw={200}
        />
        <Select
          label="Encoding"
          required
          allowDeselect={false}
          data={ENCODINGS.map((value) => ({ value, label: ENCODING_LABELS[value] }))}
          value={draft.encoding}
          onChange={(value) => value && onChange({ encoding: value as Encoding })}
          description="Letters such as é or ü look wrong in the preview? Try another encoding."
          miw={200}
        />
      </Group>
      <Checkbox
        label="The first line holds the column names"
        checked={draft.has_header}
        onChange={(event) => onLayout(draft.delimiter, event.currentTarget.checked)}
      />
      {relaid && (
        <Text size="sm" c="gray.8">
          The columns are read again with your choice; the preview step reads the whole file with it.
        </Text>
      )}
      {ambiguous ? (
        <Radio.Group
          label={AMBIGUOUS_DATES}
          required
          value={draft.date_format ?? ''}
          onChange={(value) => onChange({ date_format: value as DateFormat })}
          description={examples.length > 0 ? `Dates in the file: ${examples.join(', ')}` : undefined}
        >
          <Stack gap="xs" mt="xs">
            {detected.date_format_choices.map((format) => (
              <Radio key={format} value={format} label={DATE_FORMAT_LABELS[format]} />
            ))}
          </Stack>
        </Radio.Group>
      ) : (
        <Select
          label="Date format"
          required
          allowDeselect={false}
          maw={420}
          data={DATE_FORMATS.map((value) => ({ value, label: DATE_FORMAT_LABELS[value] }))}
          value={draft.date_format}
          onChange={(value) => value && onChange({ date_format: value as DateFormat })}
          placeholder="Choose how the dates are written"
          description={
            detected.date_format
              ? examples.length > 0
                ? `Detected from dates such as ${examples.join(', ')}.`
                : 'Detected in the file.'
              : 'No date format was recognised: choose the one the file uses.'
          }
        />
      )}
    </Stack>
  );
}
