import { describe, expect, it } from "vitest";
import { parseSse, SseParser } from "./sse";

describe("event-stream parsing", () => {
  it("reads each event's data, joining multi-line data and skipping comments and other fields", () => {
    expect(parseSse(': hi\n\nevent: message\nid: 4\ndata: {"a":\ndata:1}\n\ndata: two\n\n')).toEqual(['{"a":\n1}', "two"]);
  });

  it("accepts CRLF and CR line ends, and a last event without its blank line", () => {
    expect(parseSse("data: one\r\n\r\ndata: two\r\rdata: three")).toEqual(["one", "two", "three"]);
  });

  it("a CRLF split across chunks does not end the event early", () => {
    const p = new SseParser();
    expect(p.push("data: a\r")).toEqual([]);
    expect(p.push("\ndata: b\r")).toEqual([]);
    expect(p.push("\n\r\n")).toEqual(["a\nb"]);
  });

  it("a line split across chunks is joined", () => {
    const p = new SseParser();
    expect(p.push("da")).toEqual([]);
    expect(p.push("ta: x")).toEqual([]);
    expect(p.push("y\n\n")).toEqual(["xy"]);
  });
});
