#!/usr/bin/env node
// `node scripts/services/start.mjs`: starts PostgreSQL and etcd as the real-service mode does
// (server/real/services.mjs: temporary folders, free loopback ports, installed when missing),
// prints how to reach them, and stops both on Ctrl-C. For looking at the stores by hand;
// `--backend real`, the tests and the benchmark start their own.
import { startServices, postgresBinDir } from "../../server/real/services.mjs";

const s = await startServices();
const psql = `${postgresBinDir()}/psql -h 127.0.0.1 -p ${s.pg.port} -U postgres`;
process.stdout.write(`PostgreSQL: ${psql} -d kubeapps_en_us   (or -d kubeapps_c)   log: ${s.pg.log}
etcd:       ${s.etcd.url}   e.g. curl -s -X POST ${s.etcd.url}/v3/kv/range -d '{"key":"AA==","range_end":"AA=="}'
Ctrl-C stops both and removes their folders.
`);
const stop = () => s.stop().then(() => process.exit(0));
process.once("SIGINT", stop);
process.once("SIGTERM", stop);
setInterval(() => {}, 1 << 30);
