// What a page's custom-domain claim shows, below both the page views (common) and the checks (domains).
/** What the claimant publishes, and where the claim stands. */
export interface DomainVerification {
  state: "pending" | "verified" | "failed";
  token: string;
  /** Serve `token` as the body of this URL (HTTP 200, no redirect)… */
  httpUrl: string;
  /** …or add this TXT record. */
  txtName: string;
  txtValue: string;
  verifiedAt: number | null;
  checkedAt: number | null;
  /** Why the last check failed. */
  error: string | null;
}
