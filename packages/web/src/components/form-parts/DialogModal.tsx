import { Modal, type ModalProps } from '@mantine/core';

/** A centred dialog whose close button screen readers announce as "Close" (Mantine's own has no name). */
export function DialogModal(props: ModalProps) {
  return <Modal centered closeButtonProps={{ 'aria-label': 'Close' }} {...props} />;
}
