// Who may do what: workspaces and their limits, members and invitations, API keys, private locations,
// the install's identity and the housekeeping that keeps locations and retention honest.
export * from "./api-keys";
export * from "./domain-join";
export * from "./housekeeping";
export * from "./instance";
export * from "./members";
export * from "./private-locations";
export * from "./second-factor";
export * from "./workspace";
