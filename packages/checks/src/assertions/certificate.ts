import { daysLeft } from "../certificate";
import type { AssertionOutcome, CertificateInfo } from "../schema";
import { compareNumbers, compareText, expectation, outcome, show } from "./compare";
import type { CertificateAssertion } from "./schema";

/** Judges the peer certificate alone, so HTTPS and TLS checks share it. */
export function judgeCertificate(a: CertificateAssertion, cert: CertificateInfo | undefined, now = Date.now()): AssertionOutcome {
  const label = `certificate ${a.property}`;
  const severity = a.severity === "degraded" ? { severity: "degraded" as const } : {};
  if (!cert) return { kind: "certificate", ok: false, message: `${label}: no TLS certificate (not a TLS connection)`, ...severity };
  let result: AssertionOutcome;
  if (a.property === "expiresIn") {
    const days = daysLeft(cert.notAfter, now);
    const when = new Date(cert.notAfter).toISOString().slice(0, 10);
    result = outcome(
      "certificate",
      label,
      compareNumbers(a.compare, days, Number(a.target)),
      expectation(a.compare, String(a.target), " days"),
      `${days} days (notAfter ${when})`,
    );
  } else if (a.property === "issuer") {
    result = outcome(
      "certificate",
      label,
      compareText(a.compare, cert.issuer, String(a.target)),
      expectation(a.compare, show(a.target)),
      show(cert.issuer),
    );
  } else {
    const got = cert.valid ? "true" : `false (${cert.validationError ?? "not trusted"})`;
    result = outcome("certificate", label, cert.valid === a.target, `eq ${a.target}`, got);
  }
  return result.ok ? result : { ...result, ...severity };
}

export const certificate = (a: CertificateAssertion, res: { certificate?: CertificateInfo }): AssertionOutcome =>
  judgeCertificate(a, res.certificate);
