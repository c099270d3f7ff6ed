// Checks, their results and assertions are defined with their kinds in @vigil/checks (its runner-free entry).
export * from "@vigil/checks/contract";
