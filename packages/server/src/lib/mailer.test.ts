import { desc } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDatabase } from '../../test/database.js';
import { startSmtpServer } from '../../test/smtp.js';
import { emailLog } from '../db/schema/index.js';
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

  it('without SMTP records the message as logged, never losing it', async () => {
    const mailer = createMailer({ db: db.handle.db, from: 'portal@example.test' });
    await mailer.send({ to: 'b@example.test', subject: 'Kept', text: 'Kept text', template: 'test' });
    expect(await latest()).toMatchObject({ toAddress: 'b@example.test', status: 'logged', bodyText: 'Kept text' });
  });
});
