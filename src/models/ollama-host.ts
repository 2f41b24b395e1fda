// Where the Ollama servers are: the --ollama-host flag, else OLLAMA_HOST, else the default, normalised to URLs.

/** Ollama's default address (ollama-js 0.6.4 `defaultHost`). */
export const DEFAULT_OLLAMA_HOST = 'http://127.0.0.1:11434';
const DEFAULT_PORT = '11434';

/**
 * The base URL of the Ollama server: `flag` when given, else `env.OLLAMA_HOST`, else
 * `http://127.0.0.1:11434`. The ollama npm client does not read `OLLAMA_HOST` itself (LIBRARIES.md).
 * Normalised the way Ollama's own `envconfig.Host()` reads the variable: no scheme means `http` and
 * port 11434 (`localhost`, `10.0.0.5:8080`, `:11434`); an explicit `http://` / `https://` without a port
 * means 80 / 443; a path is kept; a trailing `/` is dropped. The bind-all addresses `0.0.0.0` and `::`
 * (often set in OLLAMA_HOST for the server) become 127.0.0.1 for the client. Pure; never throws.
 */
export function resolveOllamaHost(flag?: string, env: NodeJS.ProcessEnv = process.env): string {
  const raw = [flag, env.OLLAMA_HOST].map((value) => value?.trim() ?? '').find((value) => value !== '');
  if (raw === undefined) return DEFAULT_OLLAMA_HOST;

  let scheme = 'http';
  let defaultPort = DEFAULT_PORT;
  let rest = raw;
  const schemeEnd = raw.indexOf('://');
  if (schemeEnd >= 0) {
    scheme = raw.slice(0, schemeEnd).toLowerCase();
    rest = raw.slice(schemeEnd + 3);
    defaultPort = scheme === 'https' ? '443' : scheme === 'http' ? '80' : DEFAULT_PORT;
  }
  const slash = rest.indexOf('/');
  const hostPort = slash >= 0 ? rest.slice(0, slash) : rest;
  const path = slash >= 0 ? rest.slice(slash).replace(/\/+$/, '') : '';

  let host: string;
  let port: string;
  const bracketed = /^\[([^\]]*)\](?::(\d*))?$/.exec(hostPort);
  if (bracketed) {
    host = bracketed[1] ?? '';
    port = bracketed[2] ?? '';
  } else if ((hostPort.match(/:/g) ?? []).length > 1) {
    host = hostPort; // a bare IPv6 address
    port = '';
  } else {
    const colon = hostPort.lastIndexOf(':');
    host = colon >= 0 ? hostPort.slice(0, colon) : hostPort;
    port = colon >= 0 ? hostPort.slice(colon + 1) : '';
  }
  if (host === '' || host === '0.0.0.0' || host === '::') host = '127.0.0.1';
  if (port === '') port = defaultPort;
  const hostText = host.includes(':') ? `[${host}]` : host;
  return `${scheme}://${hostText}:${port}${path}`;
}

/**
 * The Ollama servers of a run: `flag`, else `env.OLLAMA_HOST`, else the default, split on commas
 * (`a:11434,b:11434`), each normalised by `resolveOllamaHost`, in order (duplicates kept: the caller refuses them). Pure;
 * never throws.
 */
export function resolveOllamaHosts(flag?: string, env: NodeJS.ProcessEnv = process.env): string[] {
  const raw = [flag, env.OLLAMA_HOST].map((value) => value?.trim() ?? '').find((value) => value !== '');
  if (raw === undefined) return [DEFAULT_OLLAMA_HOST];
  const parts = raw
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
  return parts.map((part) => resolveOllamaHost(part, {}));
}
