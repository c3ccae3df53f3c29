import { workerDbEnv, workerId } from './worker-db';

process.env.LOG_LEVEL ??= 'silent';
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
// this worker's own database (worker-db.ts), made by global-setup.ts
const own = process.env[workerDbEnv(workerId())];
if (own) process.env.DATABASE_URL = own;
