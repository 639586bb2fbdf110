// The YAML/JSON document inputs (`resource-spec`, `secret-references` and the JSON-object form of
// `secrets`), checked synchronously like every input. Their parser (document-parser.ts) brings
// yaml and the zod model with it, a third of the action's start-up: it is loaded only when one of
// those inputs is set, by `loadDocumentParser` before the inputs are read (parseInputs does), and
// by the smoke-test file's reader: one chunk of the bundle for both.
import type * as Parser from './document-parser.ts'
import { defaultOf, DOCUMENT_INPUTS, type InputName, type RawInputs } from './names.ts'
import type { Fail } from './problems.ts'
import type { ResourceSpec, SecretReference } from '../control-plane/schema.ts'

export { nestingMayExceed } from './nesting.ts'
export type { SyntaxMessages } from './document-parser.ts'

let parser: typeof Parser | undefined

/** Loads the document parser (once); `raw` given, only when one of its document inputs is set. */
export async function loadDocumentParser(raw?: Partial<RawInputs>): Promise<void> {
  if (raw && !DOCUMENT_INPUTS.some(name => isSet(raw, name))) return
  parser ??= await import('./document-parser.ts')
}

const isSet = (raw: Partial<RawInputs>, name: InputName) =>
  (raw[name] ?? '').trim() !== '' || defaultOf(name) !== ''

function loaded(): typeof Parser {
  if (parser === undefined) {
    throw new Error('A YAML/JSON input was read before loadDocumentParser() loaded its parser.')
  }
  return parser
}

/** See document-parser.ts. */
export const parseDocumentInput: typeof Parser.parseDocumentInput = (...args) =>
  loaded().parseDocumentInput(...args)

export function parseSecretReferences(v: string, fail: Fail): SecretReference[] | undefined {
  return v === '' ? undefined : loaded().parseSecretReferences(v, fail)
}

export function parseResourceSpec(v: string, fail: Fail): ResourceSpec | undefined {
  return v === '' ? undefined : loaded().parseResourceSpec(v, fail)
}
