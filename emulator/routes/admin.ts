// Admin routes under `/_emulator/` (outside the interface, no auth, not in the request log):
// thin HTTP wrappers around the in-process control API, routed like the interface's routes.
import { z } from 'zod'
import type { Reply } from '../http/io.ts'
import { Router, segmentsOf } from './router.ts'
import type { EmulatorControl } from '../types.ts'

const Speed = z.object({ factor: z.number().positive() })

type Handler = (emu: EmulatorControl, body: unknown, params: string[]) => Reply

const ok = (body: unknown): Reply => ({ status: 200, body })

const router = new Router<Handler>([
  {
    pattern: '/_emulator/reset',
    methods: {
      POST: emu => {
        emu.reset()
        return ok({ ok: true })
      }
    }
  },
  {
    pattern: '/_emulator/fixture',
    methods: {
      POST: (emu, body) => {
        emu.loadFixture(body as never)
        return ok({ ok: true, credentials: emu.credentials() })
      }
    }
  },
  {
    pattern: '/_emulator/faults',
    methods: {
      GET: emu => ok({ faults: emu.faults() }),
      POST: (emu, body) => {
        emu.addFaults(body as never)
        return ok({ faults: emu.faults() })
      },
      DELETE: emu => {
        emu.clearFaults()
        return ok({ faults: [] })
      }
    }
  },
  {
    pattern: '/_emulator/speed',
    methods: { POST: (emu, body) => ok(emu.configure({ speed: Speed.parse(body).factor })) }
  },
  {
    pattern: '/_emulator/config',
    methods: {
      GET: emu => ok(emu.config()),
      POST: (emu, body) => ok(emu.configure((body ?? {}) as never))
    }
  },
  {
    pattern: '/_emulator/requests',
    methods: {
      GET: emu => ok({ requests: emu.requests() }),
      DELETE: emu => {
        emu.clearRequests()
        return ok({ requests: [] })
      }
    }
  },
  {
    pattern: '/_emulator/scripts',
    methods: {
      GET: emu => ok({ scripts: emu.scripts() }),
      POST: (emu, body) => ok({ script: emu.script(body as never), scripts: emu.scripts() }),
      DELETE: emu => {
        emu.clearScripts()
        return ok({ scripts: [] })
      }
    }
  },
  {
    pattern: '/_emulator/revisions/:revision_id/logs',
    methods: {
      GET: (emu, _body, [id]) => {
        const logs = emu.revisionLogs(id!)
        return logs ? ok(logs) : { status: 404, body: { detail: `Revision ID ${id} not found.` } }
      }
    }
  },
  {
    pattern: '/_emulator/deployments/:deployment_id/out-of-band',
    methods: { POST: (emu, body, [id]) => ok(emu.outOfBand(id!, (body ?? {}) as never)) }
  },
  { pattern: '/_emulator/state', methods: { GET: emu => ok(emu.state()) } },
  { pattern: '/_emulator/credentials', methods: { GET: emu => ok(emu.credentials()) } }
])

function problem(error: unknown): Reply {
  if (error instanceof z.ZodError) {
    return { status: 400, body: { detail: z.prettifyError(error), issues: error.issues } }
  }
  return { status: 400, body: { detail: error instanceof Error ? error.message : String(error) } }
}

/** Answers an admin request; bad input is 400 `{detail}`, an unknown route 404. */
export function handleAdmin(
  emu: EmulatorControl,
  method: string,
  path: string,
  raw: Buffer
): Reply {
  const found = router.match(method, segmentsOf(path.replace(/\/$/, '')))
  if (found.kind === 'no-path') {
    return { status: 404, body: { detail: `No admin route ${method.toUpperCase()} ${path}.` } }
  }
  if (found.kind === 'no-method') {
    return {
      status: 405,
      body: { detail: `${path} takes ${found.allow.join(', ')}.` },
      headers: { allow: found.allow.join(', ') }
    }
  }
  let body: unknown = undefined
  if (raw.length > 0) {
    try {
      body = JSON.parse(raw.toString('utf8'))
    } catch {
      return { status: 400, body: { detail: 'Admin request body is not JSON.' } }
    }
  }
  try {
    return found.handler(emu, body, found.params)
  } catch (error) {
    return problem(error)
  }
}
