import { Text } from '@mantine/core';
import type { StdElement } from '../api/elements';

/**
 * Where an edition upgrade carried the element's result from ("Carried from GOV.1.1 (2025): Compliant, equal"), in
 * the element panel's header; nothing for an element assessed in this assessment from the start.
 */
export function CarriedFrom({ element }: { element: Pick<StdElement, 'carried_from'> }) {
  if (!element.carried_from) return null;
  return (
    <Text size="xs" c="dimmed" data-testid="carried-from">
      Carried from {element.carried_from}
    </Text>
  );
}
