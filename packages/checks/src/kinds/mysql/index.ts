import { databaseKind } from "../database";

/** MySQL and MariaDB speak the same protocol: one kind for both. */
const my = databaseKind({ kind: "mysql", schemes: ["mysql", "mariadb"], defaultPort: 3306, defaultQuery: "SELECT 1", system: "mysql" });

export const mysql = my.kind;
export const MysqlCheck = my.check;
export type MysqlCheck = import("zod").infer<typeof MysqlCheck>;
