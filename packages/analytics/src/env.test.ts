import { parseEnv } from "@vigil/config";
import { describe, expect, it } from "vitest";
import { AnalyticsEnv } from "./env";

// What a process would see: NODE_ENV is always there.
const vars = (set: Record<string, string>): NodeJS.ProcessEnv => ({ NODE_ENV: "test", ...set });

describe("analytics settings", () => {
  it("without ANALYTICS_URL (or with it empty) results stay in libSQL, with the documented defaults", () => {
    expect(parseEnv(AnalyticsEnv, vars({ ANALYTICS_URL: "" }))).toEqual({
      ANALYTICS_USER: "default",
      ANALYTICS_DATABASE: "vigil",
    });
  });

  it("a bad ANALYTICS_URL or database name stops start-up naming the variable", () => {
    expect(() => parseEnv(AnalyticsEnv, vars({ ANALYTICS_URL: "clickhouse:7181" }))).toThrow(
      "ANALYTICS_URL: must be a URL such as http://127.0.0.1:8080",
    );
    expect(() => parseEnv(AnalyticsEnv, vars({ ANALYTICS_DATABASE: "vigil; drop" }))).toThrow(
      "ANALYTICS_DATABASE: must be letters, digits or underscores",
    );
  });
});
