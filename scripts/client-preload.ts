// Loaded (node --import) into each web app the launcher forwards connections to, before Next listens: the first
// connection, which starts the app, already carries a PROXY header, and instrumentation runs only later.
import { installClientStamp } from "../packages/rate-limit/src/client-stamp";

installClientStamp();
