/**
 * The owner's settings (`admin_settings`, db/migrations/0016_settings.sql): switches the owner sets in the
 * admin. A setting nobody has set yet has no row, and its reader falls back to the environment's default.
 */
import type { Queryable } from '../db/index.ts';

export const SETTINGS = ['content_editors_publish'] as const;
export type SettingName = (typeof SETTINGS)[number];

/** The stored value of a setting; undefined while nobody has set it. */
export async function readSetting(db: Queryable, name: SettingName): Promise<boolean | undefined> {
  const rows = await db.query<{ value: boolean }>('SELECT value FROM admin_settings WHERE name = $1', [name]);
  return rows[0]?.value;
}

/** Stores a setting as `adminId` set it. */
export async function writeSetting(
  db: Queryable,
  name: SettingName,
  value: boolean,
  adminId: number,
): Promise<void> {
  await db.query(
    `INSERT INTO admin_settings (name, value, updated_by) VALUES ($1, $2, $3)
     ON CONFLICT (name) DO UPDATE SET value = EXCLUDED.value, updated_at = now(), updated_by = EXCLUDED.updated_by`,
    [name, value, adminId],
  );
}
