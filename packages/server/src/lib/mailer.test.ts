import fs from 'node:fs';
import net from 'node:net';
import { desc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDatabase } from '../../test/database.js';
import { startSmtpServer } from '../../test/smtp.js';
import { emailLog } from '../db/schema/index.js';
import { systemClock, testClock } from './clock.js';
import { randomToken, sha256 } from './crypto.js';
import { createMailer, LINK_MARKER, withoutLiveLinks } from './mailer.js';

const appKey = Buffer.alloc(32, 3);
const from = 'Portal <portal@example.test>';

/** A port nothing listens on yet: connections to it are refused until a server takes it. */
async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

const messageIdOf = (raw: string) => raw.match(/^Message-ID: (.*)$/im)?.[1]?.trim();

describe('mailer: the outbox', () => {
  const db = useTestDatabase();
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  beforeAll(async () => {
    smtp = await startSmtpServer();
  });
  afterAll(() => smtp.close());

  const latest = async () => (await db.handle.db.select().from(emailLog).orderBy(desc(emailLog.id)).limit(1))[0]!;
  const rowsTo = (to: string) => db.handle.db.select().from(emailLog).where(eq(emailLog.toAddress, to));
  const receivedBy = (to: string) => smtp.received.filter((m) => m.to.includes(to));

  it('sends only what its transaction committed, once, with a Message-ID that every try keeps', async () => {
    const mailer = createMailer({ db: db.handle.db, smtpUrl: smtp.url, from, appKey });
    await db.handle.db
      .transaction(async (tx) => {
        await mailer.queue(tx, { to: 'rolled@example.test', subject: 'No', text: 'Never', template: 'test' });
        throw new Error('the change failed');
      })
      .catch(() => {});
    await db.handle.db.transaction((tx) =>
      mailer.queue(tx, { to: 'nurse@example.test', subject: 'Hello', text: 'Body text', template: 'test' }),
    );
    expect(await rowsTo('rolled@example.test')).toHaveLength(0);
    expect(await latest()).toMatchObject({ toAddress: 'nurse@example.test', status: 'queued', attempts: 0 });
    // Nothing is sent by queueing: the request that queued it never waits on SMTP.
    expect(receivedBy('nurse@example.test')).toHaveLength(0);

    expect(await mailer.deliverDue()).toBe(1);
    expect(await mailer.deliverDue()).toBe(0);
    const [mail] = receivedBy('nurse@example.test');
    expect(receivedBy('nurse@example.test')).toHaveLength(1);
    expect(mail!.raw).toContain('Subject: Hello');
    const row = await latest();
    expect(row).toMatchObject({ status: 'sent', attempts: 1, claimedUntil: null });
    expect(messageIdOf(mail!.raw)).toBe(row.messageId);
  });

  it('keeps no live set-password link: the log has a marker and the token hash, the sealed copy goes once sent', async () => {
    const token = randomToken(32);
    const link = `http://portal.test/reset-password?token=${token}&email=ana%40example.test`;
    const text = `Hello Ana,\n\nTo choose your password, open this link:\n\n${link}\n\nThanks`;
    expect(withoutLiveLinks(text)).toEqual({ text: text.replace(link, LINK_MARKER), tokenHash: sha256(token) });

    const mailer = createMailer({ db: db.handle.db, smtpUrl: smtp.url, from, appKey });
    await mailer.send({ to: 'ana@example.test', subject: 'Invitation', text, template: 'invitation' });
    const queued = await latest();
    expect(queued.bodyText).not.toContain(token);
    expect(queued.bodyText).toContain(LINK_MARKER);
    expect(queued.linkTokenHash).toBe(sha256(token));
    expect(queued.sealedBody).not.toBeNull();
    expect(queued.sealedBody).not.toContain(token);

    await mailer.deliverDue();
    // The person gets the working link; the log keeps none, not even sealed.
    expect(receivedBy('ana@example.test')[0]!.raw.replace(/=\r?\n/g, '')).toContain(token);
    const sent = await latest();
    expect(sent).toMatchObject({ status: 'sent', sealedBody: null });
    const { rows } = await db.handle.db.execute(
      sql`select count(*)::int as n from email_log where body_text like ${`%${token}%`} or sealed_body like ${`%${token}%`}`,
    );
    expect(rows[0]).toEqual({ n: 0 });
  });

  it('without SMTP records the message as logged, never losing it', async () => {
    const mailer = createMailer({ db: db.handle.db, from, appKey });
    await mailer.send({ to: 'b@example.test', subject: 'Kept', text: 'Kept text', template: 'test' });
    expect(await latest()).toMatchObject({ toAddress: 'b@example.test', status: 'logged', bodyText: 'Kept text' });
    expect(await mailer.deliverDue()).toBe(0);
  });

  it("logs at the app clock's time: the request's, else the mailer's clock, never the wall clock", async () => {
    const at = new Date('2031-05-04T03:02:01.000Z');
    const clock = testClock(new Date('2032-01-01T00:00:00.000Z'));
    const mailer = createMailer({ db: db.handle.db, smtpUrl: smtp.url, from, appKey, clock });
    await mailer.send({ to: 'c@example.test', subject: 'At', text: 'T', template: 'test', at });
    await mailer.deliverDue();
    expect(await latest()).toMatchObject({ toAddress: 'c@example.test', status: 'sent', createdAt: at });
    expect((await latest()).sentAt).toEqual(clock.now());
  });

  it('tries again with backoff while the SMTP server refuses connections, then delivers each message once', async () => {
    const port = await freePort();
    const clock = systemClock;
    const mailer = createMailer({
      db: db.handle.db,
      smtpUrl: `smtp://127.0.0.1:${port}`,
      from,
      appKey,
      clock,
      retryDelaysMs: [150, 300, 600, 1200, 2400],
    });
    const to = Array.from({ length: 5 }, (_, i) => `outage${i}@example.test`);
    for (const address of to) await mailer.send({ to: address, subject: 'Outage', text: 'T', template: 'test' });

    // Down: every try fails, is counted and is scheduled again, none is lost.
    await mailer.deliverDue();
    const down = await db.handle.db.select().from(emailLog).where(eq(emailLog.subject, 'Outage'));
    expect(down).toHaveLength(5);
    for (const row of down) {
      expect(row).toMatchObject({ status: 'queued', attempts: 1 });
      expect(row.error).toMatch(/^Try 1 failed: .*ECONNREFUSED/);
      expect(row.nextAttemptAt!.getTime()).toBeGreaterThan(row.createdAt.getTime());
    }

    // It comes back after a while (the portal keeps trying in the meantime), on the port it was tried on.
    const started = Date.now();
    let late: Awaited<ReturnType<typeof startSmtpServer>> | undefined;
    try {
      while (Date.now() - started < 15_000) {
        if (!late && Date.now() - started > 700) late = await startSmtpServer(port);
        await mailer.deliverDue();
        const rows = await db.handle.db.select().from(emailLog).where(eq(emailLog.subject, 'Outage'));
        if (rows.every((r) => r.status === 'sent')) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const rows = await db.handle.db.select().from(emailLog).where(eq(emailLog.subject, 'Outage'));
      for (const row of rows) {
        expect(row.status).toBe('sent');
        expect(row.attempts).toBeGreaterThan(1);
        expect(row.error).toMatch(/failed: .*ECONNREFUSED/);
      }
      // Each arrived exactly once.
      for (const address of to) expect(late!.received.filter((m) => m.to.includes(address))).toHaveLength(1);
    } finally {
      await late?.close();
    }
  });

  it('fails a message after its last try with the error, and a resend queues it for the worker again', async () => {
    const mailer = createMailer({
      db: db.handle.db,
      smtpUrl: `smtp://127.0.0.1:${await freePort()}`,
      from,
      appKey,
      retryDelaysMs: [0],
    });
    await mailer.send({ to: 'gone@example.test', subject: 'S', text: 'T', template: 'test' });
    await mailer.deliverDue();
    await mailer.deliverDue();
    const failed = await latest();
    expect(failed).toMatchObject({
      toAddress: 'gone@example.test',
      status: 'failed',
      attempts: 2,
      nextAttemptAt: null,
    });
    expect(failed.error).toMatch(/ECONNREFUSED/);

    // The superadmin's resend goes through the same worker (here one that reaches the server).
    const working = createMailer({ db: db.handle.db, smtpUrl: smtp.url, from, appKey });
    await working.resend(failed.id);
    expect(await latest()).toMatchObject({ status: 'queued' });
    await working.deliverDue();
    expect(await latest()).toMatchObject({ status: 'sent', attempts: 3 });
    expect(receivedBy('gone@example.test')).toHaveLength(1);
  });

  it('a failed message keeps its sealed link for a resend for 8 days, then loses it', async () => {
    const clock = testClock(new Date('2030-01-01T00:00:00.000Z'));
    const down = `smtp://127.0.0.1:${await freePort()}`;
    const mailer = createMailer({ db: db.handle.db, smtpUrl: down, from, appKey, clock, retryDelaysMs: [] });
    const token = randomToken(32);
    await mailer.send({
      to: 'late@example.test',
      subject: 'Kept',
      text: `https://portal.test/reset-password?token=${token}&email=x`,
      template: 'invitation',
    });
    await mailer.deliverDue();
    const failed = await latest();
    expect(failed).toMatchObject({ status: 'failed' });
    expect(failed.sealedBody).not.toBeNull();
    // A week on, a resend could still send the link.
    clock.advance(7 * 86_400_000);
    await mailer.deliverDue();
    expect((await latest()).sealedBody).not.toBeNull();
    // Past any link's life (invitations last 7 days), the worker's next round clears it.
    clock.advance(2 * 86_400_000);
    const later = createMailer({ db: db.handle.db, smtpUrl: down, from, appKey, clock });
    await later.deliverDue();
    expect((await latest()).sealedBody).toBeNull();
  });

  it('a message whose worker died mid-send is sent again once its claim runs out, with the same Message-ID', async () => {
    const clock = testClock(new Date());
    const mailer = createMailer({ db: db.handle.db, smtpUrl: smtp.url, from, appKey, clock });
    await mailer.send({ to: 'crash@example.test', subject: 'Crash', text: 'T', template: 'test' });
    const row = await latest();
    // What a worker killed after claiming leaves behind.
    await db.handle.db
      .update(emailLog)
      .set({ status: 'sending', claimedUntil: new Date(clock.now().getTime() + 60_000) })
      .where(eq(emailLog.id, row.id));
    expect(await mailer.deliverDue()).toBe(0);
    clock.advance(61_000);
    expect(await mailer.deliverDue()).toBe(1);
    expect(await latest()).toMatchObject({ status: 'sent', attempts: 1 });
    expect(messageIdOf(receivedBy('crash@example.test')[0]!.raw)).toBe(row.messageId);
  });

  it('two instances draining one outbox together send each message exactly once', async () => {
    const a = createMailer({ db: db.handle.db, smtpUrl: smtp.url, from, appKey });
    const b = createMailer({ db: db.handle.db, smtpUrl: smtp.url, from, appKey });
    const to = Array.from({ length: 45 }, (_, i) => `pair${i}@example.test`);
    await db.handle.db.transaction(async (tx) => {
      for (const address of to) await a.queue(tx, { to: address, subject: 'Pair', text: 'T', template: 'test' });
    });
    await Promise.all([a.deliverDue(), b.deliverDue(), a.deliverDue(), b.deliverDue()]);
    for (const address of to) expect(receivedBy(address)).toHaveLength(1);
    const rows = await db.handle.db.select().from(emailLog).where(eq(emailLog.subject, 'Pair'));
    expect(rows.every((r) => r.status === 'sent' && r.attempts === 1)).toBe(true);
  });

  it('migration 0026 scrubbed the links already in the log, keeping what tells whether they were used', async () => {
    const token = randomToken(32);
    const body = `Hello,\n\nhttps://portal.test/reset-password?token=${token}&email=a%40example.test\n\nBye`;
    const [row] = await db.handle.db
      .insert(emailLog)
      .values({
        toAddress: 'old@example.test',
        subject: 'Old',
        template: 'password_reset',
        bodyText: body,
        status: 'sent',
      })
      .returning();
    const [stuck] = await db.handle.db
      .insert(emailLog)
      .values({ toAddress: 'stuck@example.test', subject: 'Stuck', template: 'test', bodyText: 'T', status: 'queued' })
      .returning();
    // The migration's own data statements, run again on rows written the old way.
    const migration = fs.readFileSync(new URL('../db/migrations/0026_notice_outbox.sql', import.meta.url), 'utf8');
    const statements = migration
      .split('--> statement-breakpoint')
      .map((part) => part.trim())
      .filter((part) => /^(--[^\n]*\n)*UPDATE/.test(part));
    expect(statements).toHaveLength(2);
    for (const statement of statements) await db.handle.db.execute(sql.raw(statement));
    const [scrubbed] = await db.handle.db.select().from(emailLog).where(eq(emailLog.id, row!.id));
    expect(scrubbed!.bodyText).toBe(`Hello,\n\n${LINK_MARKER}\n\nBye`);
    expect(scrubbed!.linkTokenHash).toBe(sha256(token));
    const [failed] = await db.handle.db.select().from(emailLog).where(eq(emailLog.id, stuck!.id));
    expect(failed).toMatchObject({ status: 'failed', error: expect.stringContaining('Resend it') });
  });
});
