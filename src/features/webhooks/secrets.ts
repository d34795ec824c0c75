import type { Logger } from 'pino';
import { generateSecretKeyMaterial, openSecret, sealSecret, sealedWith, secretKey, type SecretKey } from '../../auth/secret-box.js';
import type { Clock } from '../../clock.js';
import type { Config } from '../../config.js';
import type { Db } from '../../storage/db.js';
import type { WebhookStore } from './store.js';

/** The row of `secret_keys` holding the key generated when VEXIL_SECRET_KEY is not set. */
const generatedKeyName = 'generated';

interface KeyRing {
  sealing: SecretKey;
  opening: Map<string, SecretKey>;
}

/** What a sealed secret is bound to: its subscription, so it cannot be moved to another one. */
const contextOf = (webhookUlid: string) => `webhook:${webhookUlid}`;

/**
 * Webhook signing secrets, encrypted at rest. The sealing key is VEXIL_SECRET_KEY or, when it is
 * not set, a key generated once and kept in the database (every instance of the database uses
 * the same one). Earlier keys (VEXIL_SECRET_KEY_PREVIOUS, the generated one) still open what they
 * sealed; `upgradeStoredSecrets` re-seals such rows, and seals clear ones written before
 * encryption existed.
 */
export class WebhookSecrets {
  private ring: Promise<KeyRing> | undefined;

  constructor(
    private readonly store: WebhookStore,
    private readonly db: Db,
    private readonly keys: Config['secretKeys'],
    private readonly clock: Clock,
  ) {}

  private keyRing(): Promise<KeyRing> {
    this.ring ??= this.loadKeyRing().catch((error: unknown) => {
      this.ring = undefined;
      throw error;
    });
    return this.ring;
  }

  private async loadKeyRing(): Promise<KeyRing> {
    const opening = new Map<string, SecretKey>();
    const configured = this.keys.current ? secretKey(this.keys.current) : undefined;
    for (const material of this.keys.previous) {
      const key = secretKey(material);
      opening.set(key.id, key);
    }
    let generated = await this.storedKey();
    if (!generated && !configured) generated = await this.createStoredKey();
    if (generated) opening.set(generated.id, generated);
    const sealing = configured ?? (generated as SecretKey);
    opening.set(sealing.id, sealing);
    return { sealing, opening };
  }

  private async storedKey(): Promise<SecretKey | undefined> {
    const material = await this.store.storedSecretKey(this.db, generatedKeyName);
    return material === undefined ? undefined : secretKey(Buffer.from(material, 'base64'));
  }

  /** Two instances starting together both try; the first insert wins and both use its key. */
  private async createStoredKey(): Promise<SecretKey> {
    await this.store.insertSecretKeyIfAbsent(
      this.db,
      generatedKeyName,
      generateSecretKeyMaterial().toString('base64'),
      this.clock.now().toISOString(),
    );
    return (await this.storedKey()) as SecretKey;
  }

  async seal(webhookUlid: string, secret: string): Promise<string> {
    return sealSecret((await this.keyRing()).sealing, secret, contextOf(webhookUlid));
  }

  /** The clear secret of a subscription row: sealed, or clear when written before encryption. */
  async open(webhook: { ulid: string; secret: string | null; secret_sealed: string | null }): Promise<string> {
    if (webhook.secret_sealed) return openSecret((await this.keyRing()).opening, webhook.secret_sealed, contextOf(webhook.ulid));
    if (webhook.secret) return webhook.secret;
    throw new Error('The subscription has no signing secret.');
  }

  /**
   * Seals clear secrets and re-seals those sealed with a key other than the sealing key. Each row
   * changes only if nobody changed it meanwhile, so instances starting together do not collide.
   * Rows whose key is unknown here are left for an instance that has it.
   */
  async upgradeStoredSecrets(logger: Logger): Promise<number> {
    const ring = await this.keyRing();
    const rows = await this.store.storedSecrets(this.db);
    let changed = 0;
    for (const row of rows) {
      const keyId = row.secret_sealed ? sealedWith(row.secret_sealed) : undefined;
      if (row.secret_sealed && (keyId === ring.sealing.id || !keyId || !ring.opening.has(keyId))) continue;
      if (!row.secret_sealed && !row.secret) continue;
      const clear = await this.open(row);
      const sealed = await this.seal(row.ulid, clear);
      if (await this.store.resealSecret(this.db, row.ulid, row.secret_sealed, sealed)) changed += 1;
    }
    if (changed > 0) logger.info({ count: changed }, 'webhook signing secrets sealed with the current key');
    return changed;
  }
}
