import { PasswordInput } from '@mantine/core';
import { PasswordMatch } from './PasswordMatch';
import { PasswordStrengthMeter } from './PasswordStrengthMeter';
import type { PasswordEvaluation } from './password-strength';

/** Description below the input (it holds block content, so a div rather than Mantine's default p). */
const BELOW_INPUT = {
  inputWrapperOrder: ['label', 'input', 'description', 'error'] as ('label' | 'input' | 'description' | 'error')[],
  descriptionProps: { component: 'div', mt: 6 },
};

interface NewPasswordFieldsProps {
  password: string;
  confirmation: string;
  onPassword: (password: string) => void;
  onConfirmation: (confirmation: string) => void;
  /** The new password's strength, shown under it while it is typed. */
  evaluation: PasswordEvaluation;
  errors: { password?: string; confirmation?: string };
  confirmationLabel: string;
  /**
   * Marks a field in error with aria-invalid too: PasswordInput marks it only with data-invalid, which assistive
   * technology does not read.
   */
  markInvalid?: boolean;
}

/** A new password (with its strength meter) and the same again (saying whether they match). */
export function NewPasswordFields({
  password,
  confirmation,
  onPassword,
  onConfirmation,
  evaluation,
  errors,
  confirmationLabel,
  markInvalid = false,
}: NewPasswordFieldsProps) {
  // The meter and the match are each field's description: below the input, and read out with it.
  const fields = [
    {
      label: 'New password',
      name: 'password',
      value: password,
      onChange: onPassword,
      error: errors.password,
      description: password ? <PasswordStrengthMeter evaluation={evaluation} /> : undefined,
    },
    {
      label: confirmationLabel,
      name: 'password_confirmation',
      value: confirmation,
      onChange: onConfirmation,
      error: errors.confirmation,
      description: confirmation ? <PasswordMatch matches={confirmation === password} /> : undefined,
    },
  ];
  return fields.map(({ onChange, error, ...field }) => (
    <PasswordInput
      key={field.name}
      {...field}
      autoComplete="new-password"
      required
      onChange={(event) => onChange(event.currentTarget.value)}
      error={error}
      aria-invalid={markInvalid && error ? true : undefined}
      {...BELOW_INPUT}
    />
  ));
}
