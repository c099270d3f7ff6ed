// Stored monitors for the form's unit tests: the fields they all share, each test adding its own.
import type { Monitor } from "@vigil/api-contract";

/** A fresh copy of what every stored monitor in these tests has in common (active, every minute, from iad). */
export const storedMonitorBase = (): Pick<
  Monitor,
  "description" | "frequency" | "active" | "public" | "regions" | "retry" | "status" | "health" | "createdAt" | "updatedAt"
> => ({
  description: "",
  frequency: "1m",
  active: true,
  public: false,
  regions: ["iad"],
  retry: 3,
  status: "active",
  health: "ok",
  createdAt: 1,
  updatedAt: 1,
});
