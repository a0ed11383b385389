import { parentPort, workerData } from 'node:worker_threads'
import bcrypt from 'bcryptjs'

// One imported (libreStage) bcrypt check in a thread of its own (src/auth/password.ts): bcryptjs
// is JavaScript, and a check at cost 12 is ~0.3 s of CPU that the main thread must not spend.
const { password, hash } = workerData as { password: string; hash: string }
parentPort!.postMessage(bcrypt.compareSync(password, hash))
