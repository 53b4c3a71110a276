import type { Mailer, OutgoingMail } from '../src/lib/mailer.js';

/** A mailer that keeps what would be sent, for tests of the flows that email (the SMTP path has its own test). */
export function createMailbox(): Mailer & {
  sent: OutgoingMail[];
  resent: number[];
  last(to?: string): OutgoingMail | undefined;
} {
  const sent: OutgoingMail[] = [];
  const resent: number[] = [];
  return {
    sent,
    resent,
    async resend(logId) {
      resent.push(logId);
    },
    async send(mail) {
      sent.push(mail);
    },
    last(to) {
      return [...sent].reverse().find((m) => !to || m.to === to);
    },
  };
}
