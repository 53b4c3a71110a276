import { ConfigError, loadConfig } from '../config.js';
import { openDatabase } from '../db/open.js';
import { sealAuditChain, verifyAuditChain } from '../lib/audit-chain.js';

/**
 * npm run audit:verify: seals the audit events written since the last sealing into the hash chain, then walks the
 * whole chain and reports the first broken link (exit code 1), or that it verifies (0) with its head hash, which is
 * worth keeping elsewhere: a chain cut short at its end still verifies, a head hash that no longer appears does not.
 * On the embedded database, stop the portal first (it owns DATA_DIR while it runs).
 */
async function main(): Promise<number> {
  const config = loadConfig();
  const opened = await openDatabase(config, () => {});
  try {
    const sealed = await sealAuditChain(opened.database.db);
    const report = await verifyAuditChain(opened.database.db);
    if (sealed) console.log(`Sealed ${sealed} new audit events into the chain.`);
    if (!report.ok && report.broken) {
      const event = report.broken.event_id === null ? '' : ` (audit event id ${report.broken.event_id})`;
      console.error(
        `The audit trail does NOT verify. First broken link: position ${report.broken.seq}${event}: ${report.broken.reason}`,
      );
      console.error(
        report.verified === 1 ? '1 event before it verifies.' : `${report.verified} events before it verify.`,
      );
      return 1;
    }
    console.log(`The audit trail verifies: ${report.verified} events chained.`);
    if (report.head_hash) console.log(`Head hash: ${report.head_hash}`);
    if (report.unsealed) console.log(`${report.unsealed} events written meanwhile are not sealed yet.`);
    return 0;
  } finally {
    await opened.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(
      error instanceof ConfigError ? error.message : `Could not verify the audit trail: ${(error as Error).message}`,
    );
    process.exit(2);
  },
);
