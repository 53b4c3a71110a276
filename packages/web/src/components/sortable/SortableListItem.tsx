import { useSortable } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { Box, type BoxProps, Group, UnstyledButton } from '@mantine/core';
import type { ReactNode } from 'react';

function GripIcon() {
  return (
    <svg width="16" height="16" viewBox="0 0 16 16" aria-hidden="true" focusable="false">
      {[4, 8, 12].flatMap((y) =>
        [6, 10].map((x) => <circle key={`${x}-${y}`} cx={x} cy={y} r="1.3" fill="currentColor" />),
      )}
    </svg>
  );
}

interface SortableListItemProps extends Omit<BoxProps, 'style'> {
  /** The item's id in the SortableContext. */
  id: number | string;
  /** No drag now (busy or locked). */
  disabled: boolean;
  /** The item may be moved at all: the handle looks active and shows the grab cursor. */
  movable: boolean;
  /** The name of the drag handle, e.g. "Drag 1.2 Falls". */
  handleLabel: string;
  /** The rest of the row, after the handle. */
  children: ReactNode;
  [data: `data-${string}`]: string | number | undefined;
}

/** One row of a drag-sorted list (dnd-kit): the li that follows the drag, and its grip handle first in the row. */
export function SortableListItem({ id, disabled, movable, handleLabel, children, ...box }: SortableListItemProps) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({
    id,
    disabled,
  });
  return (
    <Box
      component="li"
      ref={setNodeRef}
      {...box}
      style={{
        transform: CSS.Transform.toString(transform),
        transition,
        position: 'relative',
        zIndex: isDragging ? 1 : undefined,
        background: 'var(--mantine-color-body)',
        border: '1px solid var(--mantine-color-gray-3)',
        borderRadius: 'var(--mantine-radius-sm)',
        boxShadow: isDragging ? 'var(--mantine-shadow-md)' : undefined,
      }}
    >
      <Group gap="sm" wrap="nowrap" align="center">
        <UnstyledButton
          ref={setActivatorNodeRef}
          {...attributes}
          {...listeners}
          aria-label={handleLabel}
          disabled={disabled}
          c={movable ? 'gray.7' : 'gray.4'}
          style={{ cursor: movable ? 'grab' : 'not-allowed', touchAction: 'none', display: 'flex', padding: 4 }}
        >
          <GripIcon />
        </UnstyledButton>
        {children}
      </Group>
    </Box>
  );
}
