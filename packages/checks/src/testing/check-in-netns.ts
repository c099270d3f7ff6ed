// Runs one check inside the network namespace the calling test made (unshare -rn): prints its result as JSON.
import { runCheck } from "../index";
import { CheckDefinition } from "../kinds";

const def = CheckDefinition.parse(JSON.parse(process.argv[2] ?? "{}"));
process.stdout.write(JSON.stringify(await runCheck(def)));
