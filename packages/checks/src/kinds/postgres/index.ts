import { databaseKind } from "../database";

const pg = databaseKind({
  kind: "postgres",
  schemes: ["postgres", "postgresql"],
  defaultPort: 5432,
  defaultQuery: "SELECT 1",
  system: "postgresql",
});

export const postgres = pg.kind;
export const PostgresCheck = pg.check;
export type PostgresCheck = import("zod").infer<typeof PostgresCheck>;
