import { describe, expect, it } from "vitest";
import { checkKinds, requestFields } from "./index";

describe("forms read a kind's request fields from the registry", () => {
  it("the DNS, TLS and domain kinds list their fields with types, choices and defaults", () => {
    expect(requestFields(checkKinds.dns)).toEqual([
      { name: "name", type: "text", required: true },
      {
        name: "recordType",
        type: "choice",
        options: ["A", "AAAA", "CNAME", "MX", "TXT", "NS", "SOA", "CAA", "SRV"],
        required: false,
        placeholder: "A",
      },
      { name: "resolver", type: "text", required: false },
    ]);
    expect(requestFields(checkKinds.tls).map((f) => [f.name, f.type, f.placeholder])).toEqual([
      ["host", "text", undefined],
      ["port", "number", "443"],
      ["sni", "text", undefined],
      ["starttls", "choice", undefined],
    ]);
    expect(requestFields(checkKinds.domain).map((f) => [f.name, f.type, f.required])).toEqual([
      ["domain", "text", true],
      ["rdapUrl", "text", false],
      ["alertDays", "number", false],
      ["warnDays", "number", false],
    ]);
  });
});
