// One counter per client: an IPv4 address, or an IPv6 /64 (one host usually holds a whole /64, so counting
// single IPv6 addresses would give it billions of budgets).
import { isIP } from "node:net";

/** The key a per-client limit counts under: the address itself for IPv4, its /64 for IPv6. */
export function clientKey(address: string): string {
  if (isIP(address) !== 6) return address;
  const [head = "", tail = ""] = address.toLowerCase().split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  // An embedded IPv4 tail (::ffff:1.2.3.4) counts as two groups; it lies past the /64 anyway.
  const groups = address.includes("::") ? [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill("0"), ...right] : left;
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ""))
    .join(":")}::/64`;
}
