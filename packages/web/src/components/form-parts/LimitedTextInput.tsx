import { TextInput, type TextInputProps } from '@mantine/core';

/** The message for a value longer than `limit` characters, or null: one sentence, the same on every form. */
export function lengthProblem(value: string, limit: number): string | null {
  const length = value.trim().length;
  if (length <= limit) return null;
  return `Shorten this to ${limit.toLocaleString('en-US')} characters or fewer (it has ${length.toLocaleString('en-US')}).`;
}

interface LimitedTextInputProps extends Omit<TextInputProps, 'maxLength' | 'value'> {
  value: string;
  /** The most characters the field takes. */
  limit: number;
}

/**
 * A text field with a length limit that never cuts what was typed or pasted (a browser's maxLength drops the rest
 * without a word): past the limit it says so and by how much, and the form refuses to send it (`lengthProblem`).
 * Near the limit it counts the characters.
 */
export function LimitedTextInput({ limit, value, error, description, ...props }: LimitedTextInputProps) {
  const length = value.length;
  const count =
    length >= limit * 0.8 ? `${length.toLocaleString('en-US')} of ${limit.toLocaleString('en-US')} characters` : null;
  return (
    <TextInput
      {...props}
      value={value}
      description={count ?? description}
      error={error || lengthProblem(value, limit)}
    />
  );
}
