// `npm run emulator [-- --port N --host H --fixture FILE --speed X --base-path /p]`: serves the
// emulator in the foreground, prints its URL and the first tenant's credentials, stops on
// SIGINT/SIGTERM.
import { parseArgs } from 'node:util'
import { readFixtureFile, startEmulator } from './server.ts'

function fail(message: string): never {
  process.stderr.write(`emulator: ${message}\n`)
  process.exit(2)
}

const { values } = (() => {
  try {
    return parseArgs({
      options: {
        port: { type: 'string', default: '4010' },
        host: { type: 'string', default: '127.0.0.1' },
        fixture: { type: 'string' },
        speed: { type: 'string' },
        'base-path': { type: 'string' }
      },
      strict: true
    })
  } catch (error) {
    return fail(error instanceof Error ? error.message : String(error))
  }
})()

const port = Number(values.port)
if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`invalid --port ${values.port}`)
const speed = values.speed === undefined ? undefined : Number(values.speed)
if (speed !== undefined && !(speed > 0)) fail(`invalid --speed ${values.speed}`)

// Signal handlers go in before anything is printed: a script that reads the four lines and
// stops the emulator at once must not hit the default (killing) signal disposition.
let emulator: Awaited<ReturnType<typeof startEmulator>> | undefined
let stopping = false
const stop = () => {
  if (stopping) return
  stopping = true
  if (!emulator) process.exit(0)
  void emulator.close().then(() => process.exit(0))
}
process.on('SIGINT', stop)
process.on('SIGTERM', stop)

try {
  emulator = await startEmulator({
    port,
    host: values.host,
    basePath: values['base-path'],
    speed,
    fixture: values.fixture === undefined ? undefined : readFixtureFile(values.fixture)
  })
} catch (error) {
  fail(error instanceof Error ? error.message : String(error))
}

const credentials = emulator.credentials()
process.stdout.write(
  [
    `url: ${emulator.url}`,
    `api-key: ${credentials.apiKey}`,
    `tenant-id: ${credentials.tenantId}`,
    `integration-id: ${credentials.integrationId ?? ''}`,
    ''
  ].join('\n')
)
