import { parseArgs } from 'node:util';
import { join, resolve } from 'node:path';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createHub, type Hub } from './hub.js';
import { openDatabase } from './db/open.js';
import { NativeModuleError } from './db/native-binding.js';
import { defaultDataDir, DEFAULT_HOST, DEFAULT_PORT, olderDesktopDataDir } from './paths.js';
import { moveOlderDesktopData, runningHub, type DataMove } from './data-dir-move.js';
import { ChannelCreationError, changePassword, createChannel } from './services/channels.js';
import { getConfig, setConfig } from './store/config.js';
import { JSONP_SETTING } from './api/compat/jsonp.js';
import { listChannels, localAddress } from './store/channels.js';
import { getOwnerAccount } from './store/accounts.js';
import { importChannel, sourceAddressProblem, type ImportRequest } from './services/channel-import/importer.js';
import { normaliseSourceUrl } from './services/channel-import/native-client.js';
import { PromptCancelled, promptHidden } from './cli-password.js';
import { KEYS_NOT_MOVED, summaryLines } from './services/channel-import/progress.js';
import { progressPrinter } from './cli-progress.js';
import { federationUrl, setFederation } from './federation/settings.js';
import { backupCommand, restoreCommand } from './cli-backup.js';
import { BackupError } from './backup/errors.js';
import { parseEvery } from './backup/settings.js';

/** Each command's usage, as `hearth <command> --help` prints it. */
const COMMANDS = {
  serve: `hearth serve [--data DIR] [--host 127.0.0.1] [--port 8420] [--base-url URL] [--trust-proxy]
               [--backup-to TARGET] [--backup-every 1d]
      runs the hub until Ctrl-C or SIGTERM (\`npm run hub\` is the same)
      --trust-proxy: behind a reverse proxy on this machine (Caddy, nginx), take the client address
      and scheme from its X-Forwarded-For / X-Forwarded-Proto headers (only on requests from loopback)
      --backup-to, --backup-every (30m, 6h, 1d, 1w, off): the schedule of a headless hub's backups,
      saved as its settings (daily by default once a target is set)`,
  channel: `hearth channel create --nick NICK --name "Display Name" --password PW [--email E] [--data DIR]
  hearth channel list [--data DIR]
  hearth channel import --from URL --user NICK [--data DIR] [--base-url URL]
      moves a channel here from a Hubzilla or another Hearth (run it again to resume); asks for
      the channel's password there, or takes it from HEARTH_IMPORT_PASSWORD (or --password PW,
      which other users of this computer can see in the process list)`,
  passwd: `hearth passwd --password NEW [--revoke-oauth] [--data DIR]
      logs out every browser session; --revoke-oauth also revokes the apps' OAuth tokens`,
  jsonp: `hearth jsonp on|off [--data DIR]
      answers ?callback= with JSONP on the microblog API (off by default), for old clients`,
  federation: `hearth federation on|off [--base-url URL] [--data DIR]
      lets the channels follow and be followed across the fediverse (ActivityPub; off by default);
      needs the hub's public https address (a reverse proxy or a tunnel), fixed from then on`,
  backup: `hearth backup [--to FOLDER|s3://bucket/prefix] [--data DIR]
      backs the hub up while it runs (only what the target lacks is copied); the target is the one
      in Settings → Backups unless given; prints the backup's id, size, files copied and time`,
  restore: `hearth restore --from FOLDER|s3://bucket/prefix [--backup ID] [--data NEWDIR]
      restores a backup (the newest unless --backup) into a new, empty data folder, verifying every
      checksum; a damaged backup is refused, naming what is damaged`,
};
type Command = keyof typeof COMMANDS;

function dataNote(env: NodeJS.ProcessEnv): string {
  return `Data folder: ${defaultDataDir(env)} (${env.HEARTH_DATA ? 'from HEARTH_DATA' : 'the default for the desktop app, npm start and hearth alike'}); --data DIR or HEARTH_DATA choose another.`;
}

function usage(env: NodeJS.ProcessEnv, command?: Command): string {
  if (command) return `Usage:\n  ${COMMANDS[command]}\n\n${dataNote(env)}`;
  return `Usage:
  ${Object.values(COMMANDS).join('\n  ')}
  hearth --help, hearth <command> --help

${dataNote(env)}

Environment: HEARTH_DATA, HEARTH_HOST, HEARTH_PORT, HEARTH_BASE_URL, HEARTH_TRUST_PROXY=1,
HEARTH_IMPORT_PASSWORD, HEARTH_FEDERATION_INSECURE=1 (federation over http and private addresses: for
tests and LAN experiments only), HEARTH_BACKUP_PASSPHRASE (encrypts backups; needed to restore them),
AWS_ENDPOINT_URL, AWS_REGION, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY (an S3 target, when the
settings leave them empty).`;
}

class UsageError extends Error {}

/** `--help` (or `-h`) given to a command. */
class HelpRequested extends Error {
  constructor(readonly command: Command) {
    super(`help for ${command}`);
  }
}

const HELP = { type: 'boolean', short: 'h' } as const;

function helpIf(asked: boolean | undefined, command: Command): void {
  if (asked) throw new HelpRequested(command);
}

/**
 * The data directory a command uses. The default one first takes over the desktop app's older
 * folder, once; the command says so, or where that folder is when it stays apart.
 */
function dataDirFor(given: string | undefined, env: NodeJS.ProcessEnv): string {
  const dir = given ?? defaultDataDir(env);
  if (!env.HEARTH_DATA && resolve(dir) === resolve(defaultDataDir(env))) reportMove(moveOlderDesktopData(dir, olderDesktopDataDir(env)), dir);
  return dir;
}

function reportMove(move: DataMove, dir: string): void {
  if (move.outcome === 'moved') {
    console.error(`Hearth: moved the hub from ${move.from} to ${dir}, the one data folder of the desktop app, npm start and hearth.`);
    if (move.leftBehind.length) console.error(`Left in ${move.from}, as ${dir} has them too: ${move.leftBehind.join(', ')}.`);
  } else if (move.outcome === 'left') {
    console.error(`Hearth: the desktop app's older data folder ${move.from} has a hub too; it was not moved to ${dir} (${move.reason}). Use --data ${move.from} to work on it.`);
  }
}

const consoleLog = {
  info: (...a: unknown[]) => console.log(...a),
  warn: (...a: unknown[]) => console.warn(...a),
  error: (...a: unknown[]) => console.error(...a),
};

function parsePort(value: string | undefined): number {
  if (value === undefined || value === '') return DEFAULT_PORT;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new UsageError(`not a port number: ${value}`);
  return n;
}

/** A yes/no environment variable: 1, true, yes, on are yes. */
function envFlag(value: string | undefined): boolean {
  return ['1', 'true', 'yes', 'on'].includes((value ?? '').trim().toLowerCase());
}

export interface ServeOptions {
  dataDir: string;
  host: string;
  port: number;
  baseUrl?: string;
  trustProxy: boolean;
  /** The backup schedule given on the command line (saved as the hub's settings). */
  backup?: { target?: string; everySeconds?: number };
}

export function serveOptions(args: string[], env: NodeJS.ProcessEnv = process.env): ServeOptions {
  const { values } = parseArgs({
    args,
    options: { data: { type: 'string' }, host: { type: 'string' }, port: { type: 'string' }, 'base-url': { type: 'string' }, 'trust-proxy': { type: 'boolean' }, 'backup-to': { type: 'string' }, 'backup-every': { type: 'string' }, help: HELP },
    strict: true,
  });
  helpIf(values.help, 'serve');
  const everySeconds = values['backup-every'] === undefined ? undefined : parseEvery(values['backup-every']);
  if (values['backup-every'] !== undefined && everySeconds === undefined) throw new UsageError(`--backup-every: not a period: ${values['backup-every']} (say 30m, 6h, 1d, 1w or off)`);
  const backupTo = values['backup-to'] === undefined ? undefined : values['backup-to'].startsWith('s3:') ? values['backup-to'] : resolve(values['backup-to']);
  return {
    dataDir: values.data ?? defaultDataDir(env),
    host: values.host ?? env.HEARTH_HOST ?? DEFAULT_HOST,
    port: parsePort(values.port ?? env.HEARTH_PORT),
    baseUrl: values['base-url'] ?? env.HEARTH_BASE_URL ?? undefined,
    trustProxy: values['trust-proxy'] ?? envFlag(env.HEARTH_TRUST_PROXY),
    backup: backupTo !== undefined || everySeconds !== undefined ? { target: backupTo, everySeconds } : undefined,
  };
}

/** Starts the hub and keeps it running until SIGINT/SIGTERM, then closes it cleanly. */
export async function serve(opts: ServeOptions): Promise<Hub> {
  const hub = await createHub({ ...opts, log: consoleLog });
  const url = await hub.listen();
  console.log(`Hearth is running at ${url}/ (data: ${opts.dataDir})`);
  hub.backups.startSchedule(opts.backup);
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: finishing requests in flight and closing the database…`);
    await hub.close();
    console.log('Hearth stopped.');
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
  return hub;
}

function siteOf(baseUrl: string | undefined, port: number) {
  const url = baseUrl ? new URL(baseUrl) : new URL(`http://127.0.0.1:${port}`);
  return { baseUrl: url.toString().replace(/\/+$/, '') };
}

async function channelCommand(args: string[], env: NodeJS.ProcessEnv): Promise<number | void> {
  const [sub, ...rest] = args;
  if (sub === '--help' || sub === '-h') throw new HelpRequested('channel');
  if (sub === undefined) throw new UsageError('say channel create, channel list or channel import');
  const { values } = parseArgs({
    args: rest,
    options: {
      data: { type: 'string' },
      nick: { type: 'string' },
      name: { type: 'string' },
      password: { type: 'string' },
      email: { type: 'string' },
      'base-url': { type: 'string' },
      from: { type: 'string' },
      user: { type: 'string' },
      help: HELP,
    },
    strict: true,
  });
  helpIf(values.help, 'channel');
  if (!['create', 'list', 'import'].includes(sub)) throw new UsageError(`unknown channel command: ${sub}`);
  const dataDir = dataDirFor(values.data, env);
  if (sub === 'import') {
    if (!values.from) throw new UsageError('--from is required: the address of the hub the channel is on');
    const problem = sourceAddressProblem(values.from);
    if (problem) throw new UsageError(`--from: ${problem}`);
    if (!values.user) throw new UsageError('--user is required: the channel\'s nickname there');
    const from = normaliseSourceUrl(values.from);
    if (from.startsWith('http:')) console.error(`Warning: ${from} is not https: the password goes there unencrypted, readable on the way.`);
    const password = values.password || env.HEARTH_IMPORT_PASSWORD || (await askPassword(`Password of ${values.user} on ${from}: `));
    if (!password) {
      throw new UsageError('the channel\'s password there is needed: type it when asked (on a terminal), or set HEARTH_IMPORT_PASSWORD');
    }
    return importCommand({ dataDir, baseUrl: values['base-url'] ?? env.HEARTH_BASE_URL, port: parsePort(env.HEARTH_PORT) }, { from: values.from, user: values.user, password });
  }
  const noChannels = `No channels yet in ${dataDir}. Create one with: hearth channel create --nick NICK --name NAME --password PW`;
  if (sub === 'list' && !existsSync(join(dataDir, 'hearth.db'))) return console.log(noChannels);
  mkdirSync(dataDir, { recursive: true });
  const db = openDatabase(join(dataDir, 'hearth.db'));
  try {
    if (sub === 'create') {
      if (!values.nick) throw new UsageError('--nick is required');
      if (!values.password) throw new UsageError('--password is required');
      // Without a base URL given, the channel's URLs are those of the hub as it last listened.
      const site = siteOf(values['base-url'] || env.HEARTH_BASE_URL || (env.HEARTH_PORT ? undefined : getConfig(db, 'system', 'base_url')), parsePort(env.HEARTH_PORT));
      const ch = await createChannel(db, site, { nick: values.nick, name: values.name, password: values.password, email: values.email });
      console.log(`Created channel ${ch.channel_address} (${ch.channel_name}), address ${localAddress(site.baseUrl, ch.channel_address)}`);
    } else if (sub === 'list') {
      const channels = listChannels(db);
      if (!channels.length) console.log(noChannels);
      for (const c of channels) console.log(`${c.channel_address}\t${c.channel_name}${c.channel_primary ? '\t(primary)' : ''}`);
    }
  } finally {
    db.close();
  }
}

/** The password typed on the terminal, unseen; undefined when there is no terminal to ask on. */
async function askPassword(prompt: string): Promise<string | undefined> {
  if (!process.stdin.isTTY) return undefined;
  try {
    return await promptHidden(prompt, process.stdin, process.stderr);
  } catch (err) {
    if (err instanceof PromptCancelled) throw new ChannelCreationError('no password typed: nothing imported');
    throw err;
  }
}

/**
 * hearth channel import: moves a channel here, with a progress bar; Ctrl-C interrupts it (what is
 * in stays) and the same command resumes it. Exit status 0 when done, 130 when interrupted.
 */
async function importCommand(site: { dataDir: string; baseUrl?: string; port: number }, req: ImportRequest): Promise<number> {
  const pid = runningHub(site.dataDir);
  if (pid) throw new ChannelCreationError(`a hub is running on ${site.dataDir} (process ${pid}): stop it first, or use "Move a channel here" in its window`);
  mkdirSync(site.dataDir, { recursive: true });
  const hub = await createHub({ dataDir: site.dataDir, host: DEFAULT_HOST, port: site.port, baseUrl: site.baseUrl, log: consoleLog });
  const stop = new AbortController();
  const interrupt = () => {
    console.error('\nInterrupting: the file or post being written is finished or left out whole…');
    stop.abort(new Error('interrupted'));
  };
  process.once('SIGINT', interrupt);
  const progress = progressPrinter();
  try {
    console.log(`Importing ${req.user} from ${req.from} into ${site.dataDir}.`);
    console.log(KEYS_NOT_MOVED);
    const summary = await importChannel(hub, req, { signal: stop.signal, onProgress: (p) => progress.update(p) });
    progress.end();
    for (const line of summaryLines(summary)) (summary.state === 'failed' ? console.error : console.log)(line);
    return summary.state === 'done' ? 0 : summary.state === 'interrupted' ? 130 : 1;
  } finally {
    process.off('SIGINT', interrupt);
    await hub.close();
  }
}

async function passwdCommand(args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  const { values } = parseArgs({ args, options: { data: { type: 'string' }, password: { type: 'string' }, 'revoke-oauth': { type: 'boolean' }, help: HELP }, strict: true });
  helpIf(values.help, 'passwd');
  if (!values.password) throw new UsageError('--password is required');
  const dataDir = dataDirFor(values.data, env);
  const noAccount = new ChannelCreationError(`there is no account yet in ${dataDir}; create a channel first`);
  if (!existsSync(join(dataDir, 'hearth.db'))) throw noAccount;
  const db = openDatabase(join(dataDir, 'hearth.db'));
  try {
    const account = getOwnerAccount(db);
    if (!account) throw noAccount;
    const revokeOAuth = values['revoke-oauth'] === true;
    const { sessionsEnded, tokensRevoked } = await changePassword(db, account.account_id, values.password, { revokeOAuth });
    console.log(`Password changed. Browser sessions logged out: ${sessionsEnded}.`);
    console.log(revokeOAuth ? `App (OAuth) tokens revoked: ${tokensRevoked}.` : 'Apps keep their OAuth access; add --revoke-oauth to sign them out too.');
  } finally {
    db.close();
  }
}

async function jsonpCommand(args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  const { values, positionals } = parseArgs({ args, options: { data: { type: 'string' }, help: HELP }, allowPositionals: true, strict: true });
  helpIf(values.help, 'jsonp');
  const [state] = positionals;
  if (state !== 'on' && state !== 'off') throw new UsageError('say jsonp on or jsonp off');
  const dataDir = dataDirFor(values.data, env);
  mkdirSync(dataDir, { recursive: true });
  const db = openDatabase(join(dataDir, 'hearth.db'));
  try {
    setConfig(db, JSONP_SETTING.cat, JSONP_SETTING.k, state === 'on' ? '1' : '0');
    console.log(state === 'on' ? `JSONP is on for the hub in ${dataDir}: the microblog API answers ?callback= with a script.` : `JSONP is off for the hub in ${dataDir}.`);
  } finally {
    db.close();
  }
}

async function federationCommand(args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const { values, positionals } = parseArgs({ args, options: { data: { type: 'string' }, 'base-url': { type: 'string' }, help: HELP }, allowPositionals: true, strict: true });
  helpIf(values.help, 'federation');
  const [state] = positionals;
  if (state !== 'on' && state !== 'off') throw new UsageError('say federation on or federation off');
  const dataDir = dataDirFor(values.data, env);
  mkdirSync(dataDir, { recursive: true });
  const db = openDatabase(join(dataDir, 'hearth.db'));
  try {
    const url = values['base-url'] ?? env.HEARTH_BASE_URL ?? getConfig(db, 'system', 'base_url');
    const result = setFederation(db, state === 'on', url);
    if (result.problem) {
      const hint = federationUrl(db) ? '' : ' Give that address with --base-url.';
      console.error(`Federation stays off: ${result.problem}.${hint}`);
      return 2;
    }
    console.log(state === 'on' ? `Federation is on for the hub in ${dataDir}: the channels are ActivityPub actors at ${result.url}/channel/<nick> from the hub's next start.` : `Federation is off for the hub in ${dataDir} from its next start.`);
    return 0;
  } finally {
    db.close();
  }
}

export async function main(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case 'serve': {
        const options = serveOptions(rest, env);
        await serve({ ...options, dataDir: dataDirFor(options.dataDir, env) });
        return -1; // keeps running
      }
      case 'channel':
        return (await channelCommand(rest, env)) ?? 0;
      case 'passwd':
        await passwdCommand(rest, env);
        return 0;
      case 'jsonp':
        await jsonpCommand(rest, env);
        return 0;
      case 'federation':
        return await federationCommand(rest, env);
      case 'backup': {
        const { values } = parseArgs({ args: rest, options: { data: { type: 'string' }, to: { type: 'string' }, help: HELP }, strict: true });
        helpIf(values.help, 'backup');
        return await backupCommand({ dataDir: dataDirFor(values.data, env), to: values.to }, env);
      }
      case 'restore': {
        const { values } = parseArgs({ args: rest, options: { data: { type: 'string' }, from: { type: 'string' }, backup: { type: 'string' }, help: HELP }, strict: true });
        helpIf(values.help, 'restore');
        if (!values.from) throw new UsageError('--from is required: the folder or s3://bucket/prefix the backups are in');
        return await restoreCommand({ from: values.from, backup: values.backup, dataDir: values.data ?? defaultDataDir(env) }, env);
      }
      case undefined:
        console.log(usage(env));
        return 1;
      case 'help':
      case '--help':
      case '-h': {
        const [topic] = rest;
        console.log(usage(env, topic !== undefined && Object.hasOwn(COMMANDS, topic) ? (topic as Command) : undefined));
        return 0;
      }
      default:
        throw new UsageError(`unknown command: ${command}`);
    }
  } catch (err) {
    if (err instanceof HelpRequested) {
      console.log(usage(env, err.command));
      return 0;
    }
    if (err instanceof UsageError || (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      const known = command !== undefined && Object.hasOwn(COMMANDS, command) ? (command as Command) : undefined;
      console.error(`hearth: ${(err as Error).message}\n\n${usage(env, known)}`);
      return 2;
    }
    if (err instanceof ChannelCreationError || err instanceof NativeModuleError || err instanceof BackupError) {
      console.error(`hearth: ${err.message}`);
      return 1;
    }
    if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      console.error(`hearth: the port is already in use (${(err as Error).message}); choose another with --port`);
      return 1;
    }
    throw err;
  }
}
