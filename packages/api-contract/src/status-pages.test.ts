import { describe, expect, it } from "vitest";
import { StatusPage, StatusPageInput, StatusPagePatch, StatusPageSummary, StatusReportSummary } from "./index";

const keys = (o: { shape: object }) => Object.keys(o.shape).sort();

describe("status page schemas", () => {
  it("a field added to a page is accepted on create and change and shown in the answer (the password as passwordProtected)", () => {
    expect(keys(StatusPagePatch)).toEqual(keys(StatusPageInput));
    const shown = keys(StatusPage).filter((k) => !["id", "domainVerification", "passwordProtected", "createdAt", "updatedAt"].includes(k));
    expect(shown).toEqual(keys(StatusPageInput).filter((k) => k !== "password"));
  });

  it("the CLI's summaries read a full answer and pass the fields they do not name through", () => {
    const page = {
      id: 1,
      slug: "acme",
      title: "Acme",
      description: "",
      logoUrl: null,
      links: [],
      theme: "system",
      language: "en",
      customDomain: null,
      domainVerification: null,
      passwordProtected: false,
      whiteLabel: false,
      allowIndex: true,
      published: true,
      embedOrigins: [],
      createdAt: 1,
      updatedAt: 1,
    };
    expect(StatusPage.parse(page)).toEqual(page);
    expect(StatusPageSummary.parse(page)).toEqual(page);
    const report = {
      id: 3,
      workspaceId: 9,
      pageId: 1,
      title: "Down",
      status: "investigating",
      incidentId: null,
      resolvedAt: null,
      createdAt: 1,
      updatedAt: 1,
      updates: [{ id: 4, reportId: 3, status: "investigating", message: "Looking", date: 1, createdAt: 1 }],
      components: [{ componentId: 2, impact: "major_outage" }],
    };
    expect(StatusReportSummary.parse(report)).toEqual(report);
  });
});
