import { Button, type ButtonProps, type ElementProps } from '@mantine/core';

type RowActionProps = ButtonProps & ElementProps<'button', keyof ButtonProps>;

/** A small text button that acts on one row of a table or list (Edit, Move up, Delete…). */
export function RowAction(props: RowActionProps) {
  return <Button variant="subtle" size="compact-sm" {...props} />;
}
