// The instance's sign-up and admin rules from the environment: below both session and sign-in, so neither imports the other.
import { type InstanceRules, instanceRules } from "@vigil/core";
import { getEnv } from "./env";

export const rules = (): InstanceRules => instanceRules(getEnv());
