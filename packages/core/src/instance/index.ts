// The operators of the instance: who its admins are, the sign-up rule, every workspace's limits and plan,
// users, instance-admin tokens and the instance's own audit log.
export * from "./audit";
export * from "./rules";
export * from "./signup";
export * from "./tokens";
export * from "./users";
export * from "./workspaces";
