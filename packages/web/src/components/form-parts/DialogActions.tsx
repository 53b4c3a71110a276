import { Button, Group, type GroupProps } from '@mantine/core';
import type { ReactNode } from 'react';

interface DialogActionsProps extends Omit<GroupProps, 'children'> {
  onCancel: () => void;
  /** While the action cannot be abandoned any more (it is under way). */
  cancelDisabled?: boolean;
  /** The dialog's own action buttons, after Cancel. */
  children: ReactNode;
}

/** The button row at the foot of a dialog or form: Cancel, then what the dialog is for, right-aligned. */
export function DialogActions({ onCancel, cancelDisabled, children, ...group }: DialogActionsProps) {
  return (
    <Group justify="flex-end" gap="sm" {...group}>
      <Button variant="default" onClick={onCancel} disabled={cancelDisabled}>
        Cancel
      </Button>
      {children}
    </Group>
  );
}
