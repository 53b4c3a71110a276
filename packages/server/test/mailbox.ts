import type { Mailer, OutgoingMail } from '../src/lib/mailer.js';

/** A mailer that keeps what would be sent, for tests of the flows that email (the SMTP path has its own test). */
export function createMailbox(): Mailer & { sent: OutgoingMail[]; last(to?: string): OutgoingMail | undefined } {
  const sent: OutgoingMail[] = [];
  return {
    sent,
    async send(mail) {
      sent.push(mail);
    },
    last(to) {
      return [...sent].reverse().find((m) => !to || m.to === to);
    },
  };
}
