import { Anchor, Checkbox, VisuallyHidden } from '@mantine/core';
import { Link } from 'react-router';

interface TermsFieldProps {
  checked: boolean;
  onChange: (checked: boolean) => void;
  error?: string | null;
  /** The account accepted an earlier version: say that they changed, so the box is not a surprise. */
  changed?: boolean;
}

/** The terms acceptance box of the login form; shown only when the account must (re-)accept the terms. */
export function TermsField({ checked, onChange, error, changed = false }: TermsFieldProps) {
  return (
    <Checkbox
      checked={checked}
      onChange={(event) => onChange(event.currentTarget.checked)}
      error={error}
      description={changed ? 'The terms and conditions have changed since you last accepted them.' : undefined}
      required
      label={
        <>
          I have read and accept the{' '}
          <Anchor component={Link} to="/terms-and-conditions" target="_blank" rel="noopener" inherit>
            terms and conditions
            <VisuallyHidden> (opens in a new tab)</VisuallyHidden>
          </Anchor>
        </>
      }
    />
  );
}
