// Admin routes under `/_emulator/` (outside the interface, no auth, not in the request log):
// thin HTTP wrappers around the in-process Emulator API.
import { z } from 'zod'
import type { Reply } from './context.ts'
import type { Emulator } from './server.ts'

const Speed = z.object({ factor: z.number().positive() })

function problem(error: unknown): Reply {
  if (error instanceof z.ZodError) {
    return { status: 400, body: { detail: z.prettifyError(error), issues: error.issues } }
  }
  return { status: 400, body: { detail: error instanceof Error ? error.message : String(error) } }
}

export function handleAdmin(emulator: Emulator, method: string, path: string, raw: Buffer): Reply {
  let body: unknown = undefined
  if (raw.length > 0) {
    try {
      body = JSON.parse(raw.toString('utf8'))
    } catch {
      return { status: 400, body: { detail: 'Admin request body is not JSON.' } }
    }
  }
  const key = `${method.toUpperCase()} ${path.replace(/\/$/, '')}`
  try {
    switch (key) {
      case 'POST /_emulator/reset':
        emulator.reset()
        return { status: 200, body: { ok: true } }
      case 'POST /_emulator/fixture':
        emulator.loadFixture(body as never)
        return { status: 200, body: { ok: true, credentials: emulator.credentials() } }
      case 'GET /_emulator/faults':
        return { status: 200, body: { faults: emulator.faults() } }
      case 'POST /_emulator/faults':
        emulator.addFaults(body as never)
        return { status: 200, body: { faults: emulator.faults() } }
      case 'DELETE /_emulator/faults':
        emulator.clearFaults()
        return { status: 200, body: { faults: [] } }
      case 'POST /_emulator/speed':
        return { status: 200, body: emulator.configure({ speed: Speed.parse(body).factor }) }
      case 'GET /_emulator/config':
        return { status: 200, body: emulator.config() }
      case 'POST /_emulator/config':
        return { status: 200, body: emulator.configure((body ?? {}) as never) }
      case 'GET /_emulator/requests':
        return { status: 200, body: { requests: emulator.requests() } }
      case 'DELETE /_emulator/requests':
        emulator.clearRequests()
        return { status: 200, body: { requests: [] } }
      case 'GET /_emulator/state':
        return { status: 200, body: emulator.state() }
      case 'GET /_emulator/credentials':
        return { status: 200, body: emulator.credentials() }
      default:
        return { status: 404, body: { detail: `No admin route ${key}.` } }
    }
  } catch (error) {
    return problem(error)
  }
}
