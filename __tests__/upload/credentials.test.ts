// The credential names: the files agent projects carry that hold a token or key, left out at any
// depth whatever the ignore files say; the files that only look like them, kept; and every name
// of the list said in docs/upload.md, with where it comes from.
import { readFile } from 'node:fs/promises'
import { describe, expect, it } from '@jest/globals'
import { CREDENTIAL_NAMES, credentialName } from '../../src/upload/credentials.ts'

/** Each path, at the top and below a folder, with the name it is left out by (or undefined). */
function verdicts(paths: string[]): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {}
  for (const p of paths) for (const at of [p, `apps/agent/${p}`]) out[at] = credentialName(at)
  return out
}

describe('files that carry credentials by their names', () => {
  it.each([
    [
      'container, cluster and secret-store logins, direnv and Streamlit secrets, registry tokens',
      [
        '.docker/config.json',
        '.dockercfg',
        '.kube/config',
        '.vault-token',
        '.envrc',
        '.streamlit/secrets.toml',
        '.pypirc',
        '.netrc',
        '_netrc',
        '.npmrc',
        '.git-credentials',
        '.config/gh/hosts.yml',
        '.my.cnf',
        '.pgpass',
        '.terraformrc',
        '.terraform.d/credentials.tfrc.json'
      ]
    ],
    [
      'private keys and key stores, by the names ssh-keygen, PuTTY, Java and PKCS give them',
      [
        'id_rsa',
        'id_dsa',
        'id_ecdsa',
        'id_ed25519',
        'id_ed25519_sk',
        'deploy_rsa',
        'github_ed25519',
        'server.pem',
        'tls.key',
        'rsa_key.p8',
        'client.p12',
        'client.pfx',
        'bundle.pkcs12',
        'putty.ppk',
        'release.jks',
        'android.keystore',
        'vault.kdbx'
      ]
    ]
  ])('%s', (_, paths) => {
    for (const [path, name] of Object.entries(verdicts(paths)))
      expect({ path, left: name !== undefined }).toEqual({ path, left: true })
  })

  it('cloud and model-hub credentials: AWS, Google Cloud, Azure, Databricks, Hugging Face, Kaggle', () => {
    expect(
      verdicts([
        '.aws/credentials',
        '.config/gcloud/credentials.db',
        '.config/gcloud/legacy_credentials/ci@example.iam/adc.json',
        'application_default_credentials.json',
        'gha-creds-3f2a9c1d.json',
        '.azure/msal_token_cache.json',
        '.databrickscfg',
        '.cache/huggingface/token',
        '.kaggle/kaggle.json'
      ])
    ).toEqual({
      '.aws/credentials': '.aws/credentials',
      'apps/agent/.aws/credentials': '.aws/credentials',
      '.config/gcloud/credentials.db': 'gcloud/credentials.db',
      'apps/agent/.config/gcloud/credentials.db': 'gcloud/credentials.db',
      '.config/gcloud/legacy_credentials/ci@example.iam/adc.json': 'gcloud/legacy_credentials/**',
      'apps/agent/.config/gcloud/legacy_credentials/ci@example.iam/adc.json':
        'gcloud/legacy_credentials/**',
      'application_default_credentials.json': 'application_default_credentials.json',
      'apps/agent/application_default_credentials.json': 'application_default_credentials.json',
      'gha-creds-3f2a9c1d.json': 'gha-creds-*.json',
      'apps/agent/gha-creds-3f2a9c1d.json': 'gha-creds-*.json',
      '.azure/msal_token_cache.json': '.azure/msal_token_cache.*',
      'apps/agent/.azure/msal_token_cache.json': '.azure/msal_token_cache.*',
      '.databrickscfg': '.databrickscfg',
      'apps/agent/.databrickscfg': '.databrickscfg',
      '.cache/huggingface/token': 'huggingface/token',
      'apps/agent/.cache/huggingface/token': 'huggingface/token',
      '.kaggle/kaggle.json': 'kaggle.json',
      'apps/agent/.kaggle/kaggle.json': 'kaggle.json'
    })
  })

  it('whatever the case; a shell history', () => {
    expect(credentialName('.ENVRC')).toBe('.envrc')
    expect(credentialName('.Docker/Config.json')).toBe('.docker/config.json')
    expect(credentialName('ID_RSA')).toBe('*_rsa')
    expect(credentialName('.bash_history')).toBe('.*_history')
    expect(credentialName('.python_history')).toBe('.*_history')
  })
})

describe('files that only look like credentials stay in the archive', () => {
  it('public keys and certificates, templates, the tools’ other settings, ordinary source', () => {
    const kept = [
      'id_rsa.pub',
      'id_ed25519.pub',
      'cert.crt',
      '.env.example',
      '.env.sample',
      '.env.template',
      '.docker/daemon.json',
      '.kube/cache/discovery.json',
      '.streamlit/config.toml',
      'config.json',
      'docker-compose.yml',
      'Dockerfile',
      'settings.py',
      'database.yml',
      'token.py',
      'tokens/index.ts',
      'chat_history.py',
      'keys.py',
      'src/auth/credentials.py',
      'langgraph.json'
    ]
    const left = Object.entries(verdicts(kept)).filter(([, name]) => name !== undefined)
    expect(left).toEqual([])
  })
})

describe('docs/upload.md', () => {
  it('names every entry of the list', async () => {
    const doc = await readFile(new URL('../../docs/upload.md', import.meta.url), 'utf8')
    const missing = CREDENTIAL_NAMES.filter(n => !doc.includes(`\`${n.replace(/^!/u, '')}\``))
    expect(missing).toEqual([])
  })
})
