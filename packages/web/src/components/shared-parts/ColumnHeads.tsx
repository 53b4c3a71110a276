import { Table, VisuallyHidden } from '@mantine/core';

/**
 * A table's header row of plain column names, each a column header for assistive technology; `actions` adds a last
 * column of per-row buttons whose heading ("Actions") only assistive technology reads.
 */
export function ColumnHeads({ columns, actions = false }: { columns: readonly string[]; actions?: boolean }) {
  return (
    <Table.Thead>
      <Table.Tr>
        {columns.map((column) => (
          <Table.Th key={column} scope="col">
            {column}
          </Table.Th>
        ))}
        {actions && (
          <Table.Th scope="col">
            <VisuallyHidden>Actions</VisuallyHidden>
          </Table.Th>
        )}
      </Table.Tr>
    </Table.Thead>
  );
}
