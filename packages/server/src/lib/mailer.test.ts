import { desc } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDatabase } from '../../test/database.js';
import { startSmtpServer } from '../../test/smtp.js';
import { emailLog } from '../db/schema/index.js';
import { testClock } from './clock.js';
import { createMailer } from './mailer.js';

describe('mailer', () => {
  const db = useTestDatabase();
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  beforeAll(async () => {
    smtp = await startSmtpServer();
  });
  afterAll(() => smtp.close());

  const latest = async () => (await db.handle.db.select().from(emailLog).orderBy(desc(emailLog.id)).limit(1))[0]!;

  it('sends over SMTP and records the message as sent', async () => {
    const mailer = createMailer({ db: db.handle.db, smtpUrl: smtp.url, from: 'Portal <portal@example.test>' });
    await mailer.send({ to: 'nurse@example.test', subject: 'Hello', text: 'Body text', template: 'test' });
    expect(smtp.received).toHaveLength(1);
    expect(smtp.received[0]!.to).toEqual(['nurse@example.test']);
    expect(smtp.received[0]!.raw).toContain('Subject: Hello');
    expect(await latest()).toMatchObject({ toAddress: 'nurse@example.test', status: 'sent', attempts: 1 });
  });

  it('records a failure when the SMTP server is unreachable, and says so', async () => {
    const mailer = createMailer({ db: db.handle.db, smtpUrl: 'smtp://127.0.0.1:1', from: 'portal@example.test' });
    await expect(mailer.send({ to: 'a@example.test', subject: 'S', text: 'T', template: 'test' })).rejects.toThrow();
    expect(await latest()).toMatchObject({ toAddress: 'a@example.test', status: 'failed' });
  });

  it("logs and sends at the app clock's time: the request's, else the mailer's clock, never the wall clock", async () => {
    const at = new Date('2031-05-04T03:02:01.000Z');
    const clock = testClock(new Date('2032-01-01T00:00:00.000Z'));
    const mailer = createMailer({ db: db.handle.db, smtpUrl: smtp.url, from: 'portal@example.test', clock });
    await mailer.send({ to: 'c@example.test', subject: 'At', text: 'T', template: 'test', at });
    expect(await latest()).toMatchObject({ toAddress: 'c@example.test', status: 'sent', createdAt: at, sentAt: at });
    await mailer.send({ to: 'd@example.test', subject: 'Clock', text: 'T', template: 'test' });
    expect(await latest()).toMatchObject({ toAddress: 'd@example.test', createdAt: clock.now(), sentAt: clock.now() });
  });

  it('without SMTP records the message as logged, never losing it', async () => {
    const mailer = createMailer({ db: db.handle.db, from: 'portal@example.test' });
    await mailer.send({ to: 'b@example.test', subject: 'Kept', text: 'Kept text', template: 'test' });
    expect(await latest()).toMatchObject({ toAddress: 'b@example.test', status: 'logged', bodyText: 'Kept text' });
  });
});
