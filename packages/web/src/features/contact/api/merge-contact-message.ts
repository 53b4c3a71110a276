import type { QueryClient } from '@tanstack/react-query';
import {
  type ContactBox,
  type ContactMessage,
  type ContactMessageList,
  contactMessagesKey,
} from './get-contact-messages';

function belongsIn(box: ContactBox, message: ContactMessage): boolean {
  return box === 'archive' ? message.status === 'archived' : message.status !== 'archived';
}

/**
 * Puts the server's answer for one message into the cached boxes at once (moving it between inbox and archive and
 * keeping the unread count right), so the screen does not wait for the lists to load again.
 */
export function mergeContactMessage(queryClient: QueryClient, projectId: string, message: ContactMessage): void {
  for (const box of ['inbox', 'archive'] as const) {
    queryClient.setQueryData<ContactMessageList>(contactMessagesKey(projectId, box), (list) => {
      if (!list) return list;
      const previous = list.messages.find((item) => item.id === message.id);
      const others = list.messages.filter((item) => item.id !== message.id);
      const keep = belongsIn(box, message);
      let messages = others;
      if (keep) {
        messages = previous
          ? list.messages.map((item) => (item.id === message.id ? message : item))
          : [message, ...others].sort((a, b) => b.created_at.localeCompare(a.created_at));
      }
      const wasUnread = previous?.status === 'unread' ? 1 : 0;
      const isUnread = keep && message.status === 'unread' ? 1 : 0;
      return { messages, unread: Math.max(0, list.unread - wasUnread + isUnread) };
    });
  }
}
