import { ActionIcon, Group, Tooltip } from '@mantine/core';

/** The up or down arrow of a Move button. */
export function Arrow({ direction }: { direction: 'up' | 'down' }) {
  return (
    <svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path d={direction === 'up' ? 'M12 5l-7 7h4.5v7h5v-7H19z' : 'M12 19l7-7h-4.5V5h-5v7H5z'} fill="currentColor" />
    </svg>
  );
}

/** The cross of a Remove button. */
export function Cross() {
  return (
    <svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path d="M6 6l12 12M18 6L6 18" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" />
    </svg>
  );
}

interface ReorderControlsProps {
  /** What a row is called in the buttons' names, e.g. "question" ("Move question 2 up"). */
  noun: string;
  /** 1-based, in the whole list. */
  number: number;
  total: number;
  /** The id of each button, so an editor can put focus back on it after a move. */
  controlId: (control: 'up' | 'down' | 'remove') => string;
  onMove: (offset: -1 | 1) => void;
  onRemove: () => void;
}

/** Move up, Move down and Remove of one row of an ordered list editor (questions of a tool, variables of a template). */
export function ReorderControls({ noun, number, total, controlId, onMove, onRemove }: ReorderControlsProps) {
  return (
    <Group gap={4} wrap="nowrap">
      <Tooltip label="Move up" withArrow>
        <ActionIcon
          id={controlId('up')}
          variant="default"
          size="lg"
          aria-label={`Move ${noun} ${number} up`}
          disabled={number === 1}
          onClick={() => onMove(-1)}
        >
          <Arrow direction="up" />
        </ActionIcon>
      </Tooltip>
      <Tooltip label="Move down" withArrow>
        <ActionIcon
          id={controlId('down')}
          variant="default"
          size="lg"
          aria-label={`Move ${noun} ${number} down`}
          disabled={number === total}
          onClick={() => onMove(1)}
        >
          <Arrow direction="down" />
        </ActionIcon>
      </Tooltip>
      <Tooltip label="Remove" withArrow>
        <ActionIcon
          id={controlId('remove')}
          variant="default"
          color="red.9"
          size="lg"
          aria-label={`Remove ${noun} ${number}`}
          onClick={onRemove}
        >
          <Cross />
        </ActionIcon>
      </Tooltip>
    </Group>
  );
}
