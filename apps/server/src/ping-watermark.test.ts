import { describe, expect, it } from "vitest";
import { PARSE_SLACK_MS, PingWatermark } from "./ping-watermark";

describe("the ping server's liveness mark", () => {
  it("never vouches for a time at which a received ping was not yet stored", () => {
    const w = new PingWatermark();
    expect(w.through(10_000)).toBe(10_000 - PARSE_SLACK_MS);
    const slow = w.begin(5_000); // a ping whose database write is slow
    const quick = w.begin(7_000);
    w.end(quick);
    // Well past the ping's deadline, the mark still stops before the slow ping: no alert can be decided yet.
    expect(w.through(20_000)).toBe(4_999);
    w.end(slow);
    expect(w.through(20_000)).toBe(20_000 - PARSE_SLACK_MS);
  });
});
