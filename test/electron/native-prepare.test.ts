import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { addonAbi, cli, compileFailure, ensureNativeBuild, prebuiltFailure, PrepareError, steps, targetAbi, toolEnv } from '../../scripts/native.js';
import { installedSqliteVersion } from '../../server/db/native-binding.js';

const require = createRequire(import.meta.url);
const NODE_MODULES_ADDON = join(dirname(require.resolve('better-sqlite3/package.json')), 'build', 'Release', 'better_sqlite3.node');
const sha = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

/** What a build for `abi` looks like to the checks: a file carrying Node's registration symbol. */
const fakeAddon = (abi: string) => Buffer.from(`\x7fELF…node_register_module_v${abi}\0…`, 'latin1');

type Step = (opts: { scratch: string; runtime: string; target: string; abi: string; nodedir?: string; logFile?: string }) => Promise<void>;
const producing = (abi: string): Step => async ({ scratch }) => {
  mkdirSync(join(scratch, 'build', 'Release'), { recursive: true });
  writeFileSync(join(scratch, 'build', 'Release', 'better_sqlite3.node'), fakeAddon(abi));
};
const failing = (reason: string): Step => async () => {
  throw new PrepareError(reason);
};

/** Steps that record their calls. */
function recorder(prebuilt: Step, compile: Step) {
  const calls: string[] = [];
  const scratches: string[] = [];
  return {
    calls,
    scratches,
    using: {
      prebuilt: async (o: Parameters<Step>[0]) => (calls.push('prebuilt'), scratches.push(o.scratch), prebuilt(o)),
      compile: async (o: Parameters<Step>[0]) => (calls.push('compile'), scratches.push(o.scratch), compile(o)),
    },
  };
}

describe('preparing better-sqlite3 for another runtime (scripts/native.js)', () => {
  let dir: string;
  const before_ = sha(NODE_MODULES_ADDON);
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'hearth-native-prepare-'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
    assert.equal(sha(NODE_MODULES_ADDON), before_, 'node_modules’ own build is never touched');
  });

  it('takes the prebuilt binary when there is one, in <runtime>-<abi>, with build.json', async () => {
    const lines: string[] = [];
    const r = recorder(producing('145'), failing('not reached'));
    const result = await ensureNativeBuild({ runtime: 'electron', target: '41.7.1', dir, log: (l: string) => lines.push(l), using: r.using });
    assert.equal(result.outcome, 'prebuilt');
    assert.equal(result.folder, join(dir, 'electron-145'));
    assert.deepEqual(r.calls, ['prebuilt']);
    assert.deepEqual((await readdir(result.folder)).sort(), ['better_sqlite3.node', 'build.json']);
    assert.deepEqual(JSON.parse(readFileSync(join(result.folder, 'build.json'), 'utf8')), {
      package: 'better-sqlite3',
      version: installedSqliteVersion(),
      runtime: 'electron',
      target: '41.7.1',
      abi: '145',
      platform: process.platform,
      arch: process.arch,
      source: 'prebuilt',
    });
    assert.equal(lines.length, 2, 'one line saying what it does, one saying what it did');
    assert.match(lines[0]!, /^Preparing the SQLite module \(better-sqlite3\) for Electron 41\.7\.1 \(ABI 145\)/);
    assert.match(lines[1]!, /prebuilt binary installed into/);
    assert.equal(r.scratches.every((s) => !existsSync(s)), true, 'the scratch copy is removed');
  });

  it('does nothing, silently, when the build is already there', async () => {
    const lines: string[] = [];
    const r = recorder(failing('not reached'), failing('not reached'));
    const result = await ensureNativeBuild({ runtime: 'electron', target: '41.7.1', dir, log: (l: string) => lines.push(l), using: r.using });
    assert.equal(result.outcome, 'present');
    assert.deepEqual(r.calls, []);
    assert.deepEqual(lines, []);
  });

  it('compiles a scratch copy of better-sqlite3 when there is no prebuilt binary', async () => {
    const r = recorder(failing('not reached'), failing('not reached'));
    const result = await ensureNativeBuild({ runtime: 'node', target: '22.23.3', nodedir: '/some/headers', dir, log: () => {}, using: r.using }).catch((e: Error) => e);
    // --nodedir must hold the headers: the ABI comes from them.
    assert.ok(result instanceof PrepareError);
    assert.match(result.message, /--nodedir \/some\/headers has no include\/node\/node_version\.h/);

    const headers = join(dir, 'headers');
    mkdirSync(join(headers, 'include', 'node'), { recursive: true });
    writeFileSync(join(headers, 'include', 'node', 'node_version.h'), '#define NODE_MAJOR_VERSION 22\n#define NODE_MODULE_VERSION 127\n');
    const r2 = recorder(failing('no prebuilt binary (getaddrinfo ENOTFOUND github.com)'), async (o) => {
      assert.ok(existsSync(join(o.scratch, 'binding.gyp')), 'the scratch copy has the sources');
      assert.ok(!existsSync(join(o.scratch, 'build')), 'but not node_modules’ build');
      assert.equal(o.nodedir, headers);
      return producing('127')(o);
    });
    const compiled = await ensureNativeBuild({ runtime: 'node', target: '22.23.3', nodedir: headers, dir, log: () => {}, using: r2.using });
    assert.equal(compiled.outcome, 'compiled');
    assert.deepEqual(r2.calls, ['prebuilt', 'compile']);
    assert.equal(JSON.parse(readFileSync(join(dir, 'node-127', 'build.json'), 'utf8')).source, 'compiled');
  });

  it('gives both reasons in one line when neither works, and leaves nothing behind', async () => {
    const r = recorder(failing('no prebuilt binary (getaddrinfo ENOTFOUND github.com)'), failing('the compile failed (no Python found (node-gyp needs Python 3))'));
    await assert.rejects(ensureNativeBuild({ runtime: 'electron', target: '40.0.0', dir, log: () => {}, using: r.using }), (err: Error) => {
      assert.ok(err instanceof PrepareError);
      assert.equal(err.message, 'could not prepare better-sqlite3 for Electron 40.0.0 (ABI 143): no prebuilt binary (getaddrinfo ENOTFOUND github.com); the compile failed (no Python found (node-gyp needs Python 3))');
      return true;
    });
    assert.equal(existsSync(join(dir, 'electron-143')), false);
  });

  it('refuses a build for the wrong ABI (a compile against the wrong headers)', async () => {
    const r = recorder(failing('no prebuilt binary'), producing('115'));
    await assert.rejects(ensureNativeBuild({ runtime: 'electron', target: '39.0.0', dir, log: () => {}, using: r.using }), /it produced a build for ABI 115 instead of 140 \(the wrong headers were used\)/);
    assert.equal(existsSync(join(dir, 'electron-140', 'build.json')), false);
  });

  it('prepares again when the build is from another better-sqlite3 release', async () => {
    const info = join(dir, 'electron-145', 'build.json');
    writeFileSync(info, JSON.stringify({ ...JSON.parse(readFileSync(info, 'utf8')), version: '11.0.0' }));
    const r = recorder(producing('145'), failing('not reached'));
    assert.equal((await ensureNativeBuild({ runtime: 'electron', target: '41.7.1', dir, log: () => {}, using: r.using })).outcome, 'prebuilt');
    assert.equal(JSON.parse(readFileSync(info, 'utf8')).version, installedSqliteVersion());
  });

  it('leaves this Node to node_modules’ own build', async () => {
    const r = recorder(failing('not reached'), failing('not reached'));
    const result = await ensureNativeBuild({ runtime: 'node', target: process.versions.node, dir, log: () => {}, using: r.using });
    assert.equal(result.outcome, 'node_modules');
    assert.deepEqual(r.calls, []);
    assert.equal(existsSync(join(dir, `node-${process.versions.modules}`)), false);
  });

  it('knows the ABI of a runtime from its headers, node-abi or the installed Electron', () => {
    assert.equal(targetAbi('electron', '41.7.1'), '145');
    assert.equal(targetAbi('node', '22.23.3'), '127');
    assert.equal(targetAbi('node', '22.23.3', join(dir, 'headers')), '127');
    assert.throws(() => targetAbi('node', '999.0.0'), /cannot tell the ABI of node 999\.0\.0/);
    assert.equal(addonAbi(NODE_MODULES_ADDON), process.versions.modules, 'node_modules’ build registers for this Node');
  });

  it('keeps npm’s header and target settings away from node-gyp and prebuild-install', () => {
    const saved = { ...process.env };
    Object.assign(process.env, { npm_config_nodedir: '/usr', npm_config_target: '20.0.0', npm_config_dist_url: 'x', npm_package_config_node_gyp_nodedir: '/usr', npm_config_https_proxy: 'http://proxy:3128', npm_config_python: '/usr/bin/python3' });
    try {
      const env = toolEnv();
      for (const gone of ['npm_config_nodedir', 'npm_config_target', 'npm_config_dist_url', 'npm_package_config_node_gyp_nodedir']) assert.equal(env[gone], undefined, gone);
      assert.equal(env.npm_config_https_proxy, 'http://proxy:3128');
      assert.equal(env.npm_config_python, '/usr/bin/python3');
    } finally {
      for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
    }
  });

  it('the real prebuilt step fails cleanly, with the reason, when the binary cannot be fetched', async () => {
    // A port nobody listens on stands for an unreachable GitHub, whatever this machine's network.
    const closed = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const { port } = s.address() as { port: number };
        s.close(() => resolve(port));
      });
    });
    const scratch = join(dir, 'scratch');
    mkdirSync(scratch);
    writeFileSync(join(scratch, 'package.json'), readFileSync(require.resolve('better-sqlite3/package.json')));
    process.env.npm_config_better_sqlite3_binary_host = `http://127.0.0.1:${closed}`;
    try {
      await assert.rejects(steps.prebuilt({ scratch, runtime: 'electron', target: '41.7.1', abi: '145' }), (err: Error) => {
        assert.ok(err instanceof PrepareError);
        assert.equal(err.message, `no prebuilt binary (connect ECONNREFUSED 127.0.0.1:${closed})`);
        return true;
      });
    } finally {
      delete process.env.npm_config_better_sqlite3_binary_host;
    }
  });

  it('reads the reason out of prebuild-install’s and node-gyp’s output', () => {
    assert.equal(prebuiltFailure('prebuild-install warn install getaddrinfo ENOTFOUND github.com\n'), 'getaddrinfo ENOTFOUND github.com');
    assert.equal(prebuiltFailure('prebuild-install warn install No prebuilt binaries found (target=41.7.1 runtime=electron arch=x64 libc= platform=linux)\n'), 'No prebuilt binaries found (target=41.7.1 runtime=electron arch=x64 libc= platform=linux)');
    // Captured from node-gyp 12.4 here: Electron's headers unreachable, no Python, no make, a compiler error.
    const network = `gyp info it worked if it ends with ok
gyp http GET https://electronjs.org/headers/v41.7.1/node-v41.7.1-headers.tar.gz
gyp WARN install got an error, rolling back install
gyp ERR! configure error
gyp ERR! stack Error: This is most likely not a problem with node-gyp or the package itself and
gyp ERR! stack is related to network connectivity. In most cases you are behind a proxy or have bad
gyp ERR! stack network settings.
gyp ERR! stack at go (node-gyp/lib/install.js:244:21)
gyp ERR! not ok`;
    assert.equal(compileFailure(network), 'could not download https://electronjs.org/headers/v41.7.1/node-v41.7.1-headers.tar.gz');
    assert.equal(compileFailure('gyp ERR! find Python\ngyp ERR! find Python --python was not set on the command line\ngyp ERR! not ok'), 'no Python found (node-gyp needs Python 3)');
    assert.equal(compileFailure('gyp ERR! build error\ngyp ERR! stack Error: not found: make\ngyp ERR! stack at getNotFoundError (which/lib/index.js:16:17)\ngyp ERR! not ok'), 'not found: make');
    assert.equal(compileFailure('  CXX(target) Release/obj.target/better_sqlite3/src/better_sqlite3.o\n../src/better_sqlite3.cpp:4:10: fatal error: node.h: No such file or directory\ngyp ERR! build error\ngyp ERR! stack Error: `make` failed with exit code: 2'), '../src/better_sqlite3.cpp:4:10: fatal error: node.h: No such file or directory');
  });

  it('has exactly the documented command line', async () => {
    const out: string[] = [];
    const err: string[] = [];
    assert.equal(await cli([], (l: string) => out.push(l), (l: string) => err.push(l)), 2);
    assert.match(err.pop()!, /^Usage: node scripts\/native\.js --runtime <electron\|node> --target <version> \[--nodedir DIR\]$/);
    assert.equal(await cli(['--runtime', 'electron', '--target', '41.7.1', '--frobnicate'], (l: string) => out.push(l), (l: string) => err.push(l)), 2);
    assert.equal(await cli(['--runtime', 'deno', '--target', '2.0.0'], (l: string) => out.push(l), (l: string) => err.push(l)), 1);
    assert.match(err.pop()!, /--runtime must be electron or node, not deno/);
    assert.equal(await cli(['--runtime', 'node', '--target', process.version], (l: string) => out.push(l), (l: string) => err.push(l)), 0);
    assert.match(out.pop()!, /node_modules' own build serves this Node; nothing to do/);
  });
});
