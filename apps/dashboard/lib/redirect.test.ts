// The one check every user-given redirect target passes: only paths on the dashboard's own origin.
import { describe, expect, it } from "vitest";
import { safeRedirectPath } from "./redirect";

const ORIGIN = "https://vigil.example.com";

describe("a callbackUrl to another origin lands on the dashboard", () => {
  it.each([
    ["//evil.com"],
    ["///evil.com"],
    ["/\\evil.com"],
    ["\\\\evil.com"],
    [decodeURIComponent("/%5Cevil.com")],
    ["https://x//evil.com/"],
    ["https://evil.com"],
    ["https://evil.com/w/1"],
    ["http://vigil.example.com.evil.com/"],
    ["https://vigil.example.com.evil.com/"],
    ["https://vigil.example.com@evil.com/"],
    ["http://vigil.example.com/w/1"],
    ["https://vigil.example.com:8443/w/1"],
    ["https://vigil.example.com//evil.com/"],
    ["javascript:alert(1)"],
    ["JaVaScRiPt:alert(document.cookie)"],
    ["data:text/html,<script>alert(1)</script>"],
    ["/\t/evil.com"],
    ["/\n/evil.com"],
    ["\t//evil.com"],
    [" //evil.com"],
    ["/\r\n/evil.com"],
    [""],
    [undefined],
    [null],
    [["/w/1"]],
  ])("%j goes to /", (target) => {
    expect(safeRedirectPath(target, ORIGIN)).toBe("/");
  });

  it.each([
    ["/", "/"],
    ["/w/1/monitors?saved=3#top", "/w/1/monitors?saved=3#top"],
    ["/invite/abc", "/invite/abc"],
    ["https://vigil.example.com/w/2", "/w/2"],
    ["w/3", "/w/3"],
    ["/%2F%2Fevil.com", "/%2F%2Fevil.com"],
    ["/signin/../w/4", "/w/4"],
  ])("%j on the dashboard stays %j", (target, path) => {
    expect(safeRedirectPath(target, ORIGIN)).toBe(path);
  });
});
