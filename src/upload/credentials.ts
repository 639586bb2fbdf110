// Files that carry credentials by their well-known names: never archived, whatever the ignore
// files say, and named in the log. A deliberate list (docs/upload.md says why each is on it): the
// files that tools write secrets into, and that git users keep out with .gitignore. Matched by
// name at any depth, ignoring case (`.ENV` is as secret as `.env`).
//
//   credentialName('apps/a/.env')          // '.env'
//   credentialName('apps/a/.env.example')  // undefined: a template, kept
import { decide, parseRules } from './wildmatch.ts'

/** The names, as .gitignore lines (read as git reads them): the last line that matches decides. */
export const CREDENTIAL_NAMES = [
  // dotenv files: values the process reads as its environment; templates stay
  '*.env',
  '.env',
  '.env.*',
  '!.env.example',
  '!.env.sample',
  '!.env.template',
  // Google Cloud: google-github-actions/auth's key file, service account and OAuth client keys
  'gha-creds-*.json',
  'credentials.json',
  'application_default_credentials.json',
  'service-account*.json',
  'serviceAccountKey.json',
  'client_secret*.json',
  '.aws/credentials',
  // package registries and hosts: tokens and passwords
  '.npmrc',
  '.pypirc',
  '.netrc',
  '_netrc',
  '.git-credentials',
  '.pgpass',
  // private keys and key stores (a public certificate goes as .crt)
  'id_rsa',
  'id_dsa',
  'id_ecdsa',
  'id_ed25519',
  '*.pem',
  '*.key',
  '*.p12',
  '*.pfx',
  // Terraform state holds every secret of the resources it made
  '*.tfstate',
  '*.tfstate.backup'
] as const

// `.aws/credentials` has a `/`, which anchors a git line: `**/` lets it match at any depth.
const RULES = parseRules(
  CREDENTIAL_NAMES.map(n => (n.includes('/') ? `**/${n}` : n)).join('\n'),
  'credentials',
  'git',
  true
)

/** The credential name that `member` (a file's path, `/`-separated) carries, or undefined. */
export function credentialName(member: string): string | undefined {
  const rule = decide(RULES, member, false)
  return rule ? rule.text.replace(/^\*\*\//u, '') : undefined
}
