// Real loopback servers for tests of checks, here and end to end: TLS/HTTPS with made certificates, DNS, RDAP.
export { listenHttps, listenStartTls, listenTls, makeCertificate, type TestCertificate } from "./certs";
export { startDnsServer, type TestDnsServer, type ZoneRecord } from "./dns-server";
export { rdapDomain, startRdapServer, type TestRdapServer } from "./rdap-server";
export { listenHttp, listenTcp, type Running } from "./servers";
