// The column helpers every table file shares: timestamps in ms, JSON, and JSON encrypted at rest.
import { sql } from "drizzle-orm";
import { customType, integer, text } from "drizzle-orm/sqlite-core";
import { encryptSecret, readSecretJson } from "../secrets";

export const now = sql`(cast(unixepoch('subsec') * 1000 as integer))`;
export const createdAt = () => integer("created_at").notNull().default(now);
export const updatedAt = () => integer("updated_at").notNull().default(now);
export const json = <T>(name: string) => text(name, { mode: "json" }).$type<T>();
/** JSON stored encrypted under VIGIL_SECRET_KEY (secrets.ts); reads accept legacy plaintext. Nothing queries inside it. */
export const encryptedJson = <T>(table: string, name: string) =>
  customType<{ data: T; driverData: string }>({
    dataType: () => "text",
    toDriver: (value) => encryptSecret(JSON.stringify(value), `${table}.${name}`),
    fromDriver: (stored) => readSecretJson(stored, `${table}.${name}`) as T,
  })(name);
