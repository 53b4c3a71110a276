import { Table, type TableProps } from '@mantine/core';
import type { ReactNode } from 'react';
import { ColumnHeads } from '../shared-parts/ColumnHeads';

interface ScrollTableProps extends Omit<TableProps, 'children'> {
  /** Below this width the table scrolls sideways instead of squeezing its columns. */
  minWidth: number;
  /** The column headings, left to right. */
  columns: readonly string[];
  /** A last column of per-row buttons, its heading ("Actions") read only by assistive technology. */
  actions?: boolean;
  /** The body rows. */
  children: ReactNode;
}

/** A data table with a plain heading row that scrolls sideways on narrow screens (the list screens' tables). */
export function ScrollTable({ minWidth, columns, actions = false, children, ...table }: ScrollTableProps) {
  return (
    <Table.ScrollContainer minWidth={minWidth}>
      <Table {...table}>
        <ColumnHeads columns={columns} actions={actions} />
        <Table.Tbody>{children}</Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
