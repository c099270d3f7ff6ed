import { createHash, randomBytes } from "node:crypto";

export const sha256 = (value: string): string => createHash("sha256").update(value).digest("hex");

/** A new secret such as `vgl_live_3kd9…`; only its hash and a short prefix are stored. */
export function newSecret(kind: string): { secret: string; hash: string; prefix: string } {
  const secret = `vgl_${kind}_${randomBytes(24).toString("base64url")}`;
  return { secret, hash: sha256(secret), prefix: secret.slice(0, kind.length + 9) };
}
