import { describe, expect, it } from "vitest";
import { redactUrl } from "./fields";

describe("redactUrl", () => {
  it("hides the userinfo and secret query values, keeps the rest as written", () => {
    expect(redactUrl("https://user:pass@host/x?token=abc&page=2")).toBe("https://***@host/x?token=***&page=2");
  });

  it("finds URLs inside a message and leaves the words around them", () => {
    expect(redactUrl("request to https://a:b@example.com:8443/p?api_key=k1 failed while waiting (ETIMEDOUT)")).toBe(
      "request to https://***@example.com:8443/p?api_key=*** failed while waiting (ETIMEDOUT)",
    );
    expect(redactUrl("redirect loop: http://x/?sig=1 → http://y/?sig=2")).toBe("redirect loop: http://x/?sig=*** → http://y/?sig=***");
  });

  it("knows the usual names of credentials in a query, in any case, and in the fragment", () => {
    const keys = [
      "token",
      "key",
      "api_key",
      "apikey",
      "API-Key",
      "secret",
      "password",
      "pass",
      "auth",
      "sig",
      "signature",
      "access_token",
      "code",
      "client_secret",
      "X-Amz-Signature",
      "private_key",
    ];
    for (const k of keys) expect(redactUrl(`https://h/?${k}=s3cr3t&q=1`), k).toBe(`https://h/?${k}=***&q=1`);
    expect(redactUrl("https://h/cb#access_token=s3cr3t&state=x")).toBe("https://h/cb#access_token=***&state=x");
  });

  it("leaves ordinary URLs and parameters alone", () => {
    for (const text of [
      "https://example.com/health",
      "http://[::1]:8080/a?page=2&sort=name",
      "https://h/?q=monkey&email=a@b.c",
      "no url here: host:80",
    ])
      expect(redactUrl(text)).toBe(text);
  });

  it("hides a username alone too (a token often rides there)", () => {
    expect(redactUrl("https://ghp_abc123@github.com/org/repo")).toBe("https://***@github.com/org/repo");
  });
});
