// End-to-end: a real migrate-server (embedded PostgreSQL, one in-process translate worker) with its
// dashboard, two real jobs of one git repository (the second with fewer findings) submitted by
// migrate-cli, and headless Debian Chromium driven by playwright-core through
// sign-in (a bad token) -> overview -> repository -> job -> findings (open work first, filters) -> rule doc
// -> compare, each view checked against the API's JSON; the job page's verdict and library-kernel grouping
// also against stubbed API answers (the test's jobs are translate-only), and the view model
// (web/src/model.ts) directly. Screenshots of every view go to --artifacts.
//
//   node tests/web/dashboard_browser_test.mjs --build BUILD_DIR --source SOURCE_DIR --artifacts DIR
import assert from 'node:assert/strict';
import { spawn, execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const args = Object.fromEntries(process.argv.slice(2).reduce((pairs, arg, i, all) =>
  arg.startsWith('--') ? [...pairs, [arg.slice(2), all[i + 1]]] : pairs, []));
const build = args.build, source = args.source, artifacts = args.artifacts ?? join(build, 'test-artifacts', 'web');
const serverBin = join(build, 'bin', 'migrate-server'), cliBin = join(build, 'bin', 'migrate-cli');
const webRoot = join(build, 'share', 'hipforge', 'web');
const chromiumPath = '/usr/bin/chromium';
for (const needed of [serverBin, cliBin, join(webRoot, 'index.html'), chromiumPath]) {
  if (!existsSync(needed)) { console.error(`missing ${needed}`); process.exit(1); }
}
const { chromium } = await import(pathToFileURL(join(source, 'web', 'node_modules', 'playwright-core', 'index.mjs')).href);
mkdirSync(artifacts, { recursive: true });

const work = mkdtempSync(join(tmpdir(), 'hipforge-web-test-'));
const dataDir = join(work, 'data'), portFile = join(work, 'server.port');
let server, browser, passed = 0, failed = 0;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function cleanup() {
  if (browser) await browser.close().catch(() => {});
  if (server && server.exitCode === null) {
    server.kill('SIGTERM');
    for (let i = 0; i < 60 && server.exitCode === null; ++i) await sleep(500);
    if (server.exitCode === null) server.kill('SIGKILL');
  }
  if (failed === 0) rmSync(work, { recursive: true, force: true });
}

async function check(name, body) {
  try { await body(); ++passed; console.log(`ok - ${name}`); }
  catch (error) { ++failed; console.log(`not ok - ${name}\n${error.stack}`); }
}

try {
  // The repository: an example CUDA tree in a real git checkout; the first commit carries an extra file
  // with warp-size assumptions that the analyzer flags (one may compute wrong and stays open, one sits in code the
  // build does not compile), the second removes it.
  const repo = join(work, 'vector-app');
  cpSync(join(source, 'examples', 'cuda-vector-stats'), repo, { recursive: true });
  writeFileSync(join(repo, 'warp_extra.cu'), `#include <cuda_runtime.h>
__global__ void warp_sum(const float* in, float* out) {
  float v = in[threadIdx.x];
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffff, v, offset);
  if (threadIdx.x % 32 == 0) out[threadIdx.x / 32] = v;
  unsigned ballot = __ballot_sync(0xffffffff, v > 0.0f);
  if (ballot == 0xffffffff) out[0] = 0;
  __threadfence_system();  // HB406, may compute wrong on AMD: open work for a person, gone with the file
#if USE_PTX_FENCE
  asm volatile("brkpt;");  // HB201 in an #if branch not taken: an inactive finding, never open work
#endif
}
`);
  const git = (...a) => execFileSync('git', ['-C', repo, '-c', 'user.name=ci', '-c', 'user.email=ci@example.com', ...a]);
  git('init', '-q', '-b', 'main');
  git('add', '.');
  git('commit', '-q', '-m', 'first');

  // The server: the real migrate-server with its dashboard; its HTTP port (port 0) is written to
  // server.port.http. The API token for team "web" comes from `migrate-server token create`, which finds the
  // running server's embedded cluster through --data-dir.
  server = spawn(serverBin, ['--listen', '127.0.0.1:0', '--http-listen', '127.0.0.1:0', '--data-dir', dataDir,
      '--port-file', portFile, '--web-root', webRoot, '--local-workers', '1', '--local-worker-roles', 'translate', '--embedded-durable', 'false'],
    { stdio: ['ignore', 'ignore', 'pipe'] });
  let serverLog = '';
  server.stderr.on('data', (d) => { serverLog += d; });
  for (let i = 0; !existsSync(portFile + '.http') || !existsSync(portFile); ++i) {
    if (server.exitCode !== null || i > 360) throw new Error(`server did not start:\n${serverLog.slice(-3000)}`);
    await sleep(500);
  }
  const grpc = `127.0.0.1:${readFileSync(portFile, 'utf8').trim()}`;
  const http = `http://127.0.0.1:${readFileSync(portFile + '.http', 'utf8').trim()}`;
  const createToken = (team) => execFileSync(serverBin, ['token', 'create', '--team', team, '--scopes', 'submit,read',
    '--data-dir', dataDir], { encoding: 'utf8' }).trim().split('\n').pop().trim();
  const token = createToken('web');
  const otherTeamToken = createToken('other');
  const cli = (cmd, ...a) => execFileSync(cliBin, ['--server', grpc, cmd, ...a],
    { encoding: 'utf8', env: { ...process.env, MIGRATE_TOKEN: token } }).trim().split('\n')[0];
  // The whole standard output (cli keeps the first line: a job id).
  const cliOut = (...a) => execFileSync(cliBin, ['--server', grpc, ...a],
    { encoding: 'utf8', env: { ...process.env, MIGRATE_TOKEN: token } });
  const api = async (path) => {
    const r = await fetch(`${http}/api/v1/${path}`, { headers: { authorization: `Bearer ${token}` } });
    assert.equal(r.status, 200, `${path}: ${r.status}`);
    return r.json();
  };

  const first = cli('submit', repo, '--translate-only', '--wait', '--wait-timeout', '600');
  git('rm', '-q', 'warp_extra.cu');
  git('commit', '-q', '-m', 'drop the warp-size assumptions');
  const second = cli('submit', repo, '--translate-only', '--wait', '--wait-timeout', '600');
  // A second repository of the team with nothing for a person to do: the portfolio lists it after vector-app.
  const clean = join(work, 'clean-app');
  mkdirSync(clean);
  writeFileSync(join(clean, 'scale.cu'), `#include <cuda_runtime.h>
__global__ void scale(float* x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= a;
}
`);
  const cleanJob = cli('submit', clean, '--repository', 'clean-app', '--no-git', '--translate-only', '--wait', '--wait-timeout', '600');
  const [firstJob, secondJob] = [await api(`jobs/${first}`), await api(`jobs/${second}`)];
  await check('the second job has fewer findings than the first', () => {
    assert.equal(firstJob.spec.repository, 'vector-app');
    assert.equal(secondJob.spec.repository, 'vector-app');
    assert.notEqual(firstJob.spec.commit, secondJob.spec.commit);
    assert.ok(secondJob.summary.findings < firstJob.summary.findings,
      `findings ${firstJob.summary.findings} -> ${secondJob.summary.findings}`);
  });

  // The view model's rules, checked directly (web/src/model.ts bundled with the dashboard's esbuild).
  const modelFile = join(work, 'model.mjs');
  const { build: esbuild } = await import(pathToFileURL(join(source, 'web', 'node_modules', 'esbuild', 'lib', 'main.js')).href);
  await esbuild({ entryPoints: [join(source, 'web', 'src', 'model.ts')], bundle: true, format: 'esm', outfile: modelFile, logLevel: 'warning' });
  const model = await import(pathToFileURL(modelFile).href);
  await check('model: progress lines, library kernels, contexts, open work first', () => {
    // Worded as migrate-cli watch prints them (client/lib/progress_display.cc); absent proto fields never "undefined".
    assert.equal(model.progressLine('step', { step: { kind: 'classify', status: 'progress', detail: '9/9' } }), 'classify: progress (9/9)');
    assert.equal(model.progressLine('step', { time: '2026-12-04T19:10:11.5Z', step: { kind: 'build', name: 'gfx942', status: 'ok' } }),
      '19:10:11 build gfx942: ok');
    assert.equal(model.progressLine('file', { file_progress: { path: 'a.cu', total: 3 } }), 'translate unit 0/3 a.cu');
    assert.equal(model.progressLine('state', { state_change: { to: 'JOB_STATE_QUEUED' } }), 'state: queued');
    assert.ok(!model.progressLine('log', { log: {} }).includes('undefined'));
    assert.equal(model.libraryOf('void rocprim::detail::block_reduce_kernel<256u>(float*)'), 'rocPRIM');
    assert.equal(model.libraryOf('void thrust::hip_rocprim::__parallel_for::kernel<...>(int)'), 'Thrust');
    assert.equal(model.libraryOf('_ZN3cub18DeviceReduceKernelIiEEvPi'), 'CUB');
    assert.equal(model.libraryOf('void hipcub::DeviceScanKernel<int>(int*)'), 'hipCUB');
    assert.equal(model.libraryOf('void my_kernel<thrust::complex<float> >(thrust::complex<float>*)'), null);
    assert.equal(model.libraryOf('k23_cub_warp_primitives'), null);
    const hunk = { old_start: 10, old_lines: 7, new_start: 10, new_lines: 7,
      lines: [' a', ' b', ' c', '-old', '+new', ' d', ' e', ' f'] };
    const around = model.contextAround([hunk], 13);
    assert.deepEqual(around.map((l) => l.kind + ':' + l.text), ['ctx:b', 'ctx:c', 'del:old', 'add:new', 'ctx:d', 'ctx:e']);
    assert.ok(around.find((l) => l.at).text === 'old');
    assert.equal(model.contextAround([hunk], 40), null);
    assert.deepEqual(model.bucketsFor({ open: false }).map((b) => b.key), ['open-error', 'open-warning', 'open-note', 'fixed']);
    assert.deepEqual(model.bucketsFor({ open: true, severity: 'warning' }).map((b) => b.key), ['open-warning']);
    assert.equal(model.changeLabel('fixed', { in_other: false }), 'fixed');
    assert.equal(model.changeLabel(undefined, { in_other: false }), 'new');
    assert.equal(model.verdictOf({ state: 'JOB_STATE_SUCCEEDED', summary: {} }).level, 'translated_only');
  });

  browser = await chromium.launch({ executablePath: chromiumPath,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'] });
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 }, acceptDownloads: true });
  const consoleErrors = [];
  page.on('pageerror', (e) => consoleErrors.push(String(e)));
  const shot = (name) => page.screenshot({ path: join(artifacts, `${name}.png`), fullPage: true });
  const expectedLevel = (job) => job.summary.verdict?.level ?? (job.state === 'JOB_STATE_FAILED' ? 'failed' : 'translated_only');

  await check('sign-in form without a token', async () => {
    await page.goto(`${http}/`);
    await page.getByTestId('signin').waitFor();
    await shot('0-signin');
  });

  await check('a bad token says so: from a #token= link and from the form', async () => {
    await page.goto(`${http}/#token=not-a-real-token`);
    await page.getByTestId('signin-error').waitFor();
    assert.match(await page.getByTestId('signin-error').innerText(), /refused this token \(401/);
    await page.fill('input[name=token]', 'still-not-a-token');
    await page.click('form.signin button[type=submit]');
    await page.waitForFunction(() => document.querySelector('[data-testid=signin-error]')?.textContent.includes('401'));
    assert.equal(await page.evaluate(() => sessionStorage.getItem('hipforge.token')), null, 'a refused token is not kept');
    await shot('0b-bad-token');
  });

  await check('overview: the repository, its verdict and gate as the API says', async () => {
    await page.goto(`${http}/#token=${encodeURIComponent(token)}`);
    const overview = await api('teams/web/repositories');
    const row = page.locator('[data-testid=repository-row][data-repository="vector-app"]');
    await row.waitFor();
    const expected = overview.repositories.find((r) => r.repository === 'vector-app');
    assert.equal(await row.getByTestId('gate-status').innerText(), expected.gate_job.summary.gate.status);
    assert.equal(await row.getByTestId('open-errors').innerText(), String(expected.gate_job.summary.open_errors));
    assert.equal(await row.getByTestId('repository-verdict').getAttribute('data-level'), expectedLevel(expected.gate_job));
    assert.ok(!page.url().includes('token='), 'the token left the URL');
    await shot('1-overview');
  });

  // The portfolio's order as docs/dashboard.md states it: failed gate, nothing proved, no finished job, passed; then
  // more open errors, more open may-compute-wrong warnings.
  const gateRank = (r) => r.gate_job ? { failed: 0, not_validated: 1, not_proved: 1, passed: 3 }[r.gate_job.summary.gate.status] : 2;
  const openWork = (summary) => summary.open_errors + summary.open_warnings;
  const expectedTrend = (r) => !r.gate_job || !r.previous_gate_job ? 'first'
    : Math.sign(openWork(r.gate_job.summary) - openWork(r.previous_gate_job.summary)) < 0 ? 'better'
    : openWork(r.gate_job.summary) > openWork(r.previous_gate_job.summary) ? 'worse' : null;  // null: the gate decides
  await check('portfolio: a row per repository with verdict, gate, open errors and warnings, trend; what needs work first', async () => {
    await page.goto(`${http}/#/`);
    await page.reload();
    const repositories = (await api('teams/web/repositories?page_size=500')).repositories;
    assert.equal(repositories.length, 2);
    await page.locator('[data-testid=repository-row]').nth(repositories.length - 1).waitFor();
    const order = await page.getByTestId('repository-row').evaluateAll((rows) => rows.map((r) => r.dataset.repository));
    assert.deepEqual([...order].sort(), repositories.map((r) => r.repository).sort());
    const byName = Object.fromEntries(repositories.map((r) => [r.repository, r]));
    for (let i = 1; i < order.length; ++i) {
      const [a, b] = [byName[order[i - 1]], byName[order[i]]];
      const key = (r) => [gateRank(r), -(r.gate_job?.summary.open_errors ?? 0), -(r.gate_job?.summary.open_warnings ?? 0)];
      const [ka, kb] = [key(a), key(b)];
      const j = ka.findIndex((v, k) => v !== kb[k]);
      assert.ok(j < 0 || ka[j] < kb[j], `${a.repository} (${ka}) before ${b.repository} (${kb})`);
    }
    assert.ok(openWork(byName['vector-app'].gate_job.summary) > openWork(byName['clean-app'].gate_job.summary));
    assert.ok(order.indexOf('vector-app') < order.indexOf('clean-app'), `order: ${order}`);
    for (const r of repositories) {
      const row = page.locator(`[data-testid=repository-row][data-repository="${r.repository}"]`);
      assert.equal(await row.getByTestId('repository-verdict').getAttribute('data-level'), expectedLevel(r.gate_job));
      assert.equal(await row.getByTestId('gate-status').innerText(), r.gate_job.summary.gate.status);
      assert.equal(await row.getByTestId('open-errors').innerText(), String(r.gate_job.summary.open_errors));
      assert.equal(await row.getByTestId('open-warnings').innerText(), String(r.gate_job.summary.open_warnings));
      const direction = await row.getByTestId('trend').getAttribute('data-direction');
      if (expectedTrend(r) !== null) assert.equal(direction, expectedTrend(r), r.repository);
    }
    assert.equal(byName['vector-app'].previous_gate_job.id, first);
    assert.equal(byName['clean-app'].previous_gate_job, null);
    await shot('1b-portfolio');
  });

  await check('repository: its jobs, verdicts and trend charts dated by job date and commit', async () => {
    await page.locator('[data-testid=repository-row] a', { hasText: 'vector-app' }).click();
    await page.getByTestId('repository-name').waitFor();
    const jobs = (await api('jobs?repository=vector-app')).jobs;
    await page.locator('[data-testid=job-row]').nth(jobs.length - 1).waitFor();
    assert.equal(await page.locator('[data-testid=job-row]').count(), jobs.length);
    for (const job of jobs) {
      const row = page.locator(`[data-testid=job-row][data-job="${job.id}"]`);
      assert.equal(await row.getByTestId('job-findings').innerText(), String(job.summary.findings));
      assert.equal(await row.getByTestId('job-verdict').getAttribute('data-level'), expectedLevel(job));
    }
    await page.getByTestId('trend-findings').locator('canvas').waitFor();
    const points = (await api('trends?repository=vector-app&limit=50')).points;
    const labels = JSON.parse(await page.getByTestId('trends').getAttribute('data-labels'));
    assert.deepEqual(labels, points.map((p) => `${p.created_at.slice(0, 16).replace('T', ' ')} ${p.commit.slice(0, 7)}`));
    assert.ok(labels.every((l, i) => !l.startsWith(points[i].job_id.slice(0, 8))), 'no job-id prefixes on the axis');
    await shot('2-repository');
  });

  await check('job: verdict with what was not proved, summary, progress log without undefined, report download', async () => {
    await page.locator(`[data-testid=job-row][data-job="${second}"] a`).first().click();
    await page.getByTestId('job-id').waitFor();
    assert.equal(await page.getByTestId('findings-count').innerText(), String(secondJob.summary.findings));
    assert.equal(await page.getByTestId('files').innerText(), String(secondJob.translation.totals.files));
    assert.equal(await page.getByTestId('job-state').innerText(), 'succeeded');
    assert.equal(await page.getByTestId('verdict').getAttribute('data-level'), expectedLevel(secondJob));
    assert.equal(await page.getByTestId('verdict-headline').innerText(), 'translated only');
    assert.match(await page.getByTestId('not-proved').innerText(), /no build was made \(translation only\)/);
    assert.match(await page.getByTestId('open-errors-link').innerText(), new RegExp(`^${secondJob.summary.open_errors} error`));
    await page.locator('[data-testid=progress-log] summary').click();
    await page.getByTestId('progress-line').first().waitFor();
    await sleep(500);
    const lines = await page.getByTestId('progress-line').allInnerTexts();
    assert.ok(lines.length >= 2, `progress lines: ${lines.length}`);
    assert.deepEqual(lines.filter((l) => /undefined|null|NaN/.test(l)), []);
    assert.ok(lines.some((l) => /state: .* → succeeded$/.test(l)), lines.join('\n'));
    const [saved] = await Promise.all([page.waitForEvent('download'), page.getByTestId('download-report').click()]);
    const report = JSON.parse(readFileSync(await saved.path(), 'utf8'));
    const apiReport = await api(`jobs/${second}/report`);
    assert.equal(report.job_id, apiReport.job_id);
    assert.equal((report.findings ?? []).length, (apiReport.findings ?? []).length);
    assert.match(await page.getByTestId('cli-downloads').innerText(), new RegExp(`report ${second} --format sarif`));
    await shot('3-job');
  });

  await check('job: downloads (patch, translated tree, SARIF, JUnit) are the files migrate-cli writes, named and typed', async () => {
    await page.goto(`${http}/#/job/${second}`);
    await page.getByTestId('downloads').waitFor();
    const saveOf = async (what) => {
      const [saved] = await Promise.all([page.waitForEvent('download'), page.getByTestId(`download-${what}`).click()]);
      return { name: saved.suggestedFilename(), bytes: readFileSync(await saved.path()) };
    };
    const name = `hipforge-${second.slice(0, 8)}`;
    const cliFiles = join(work, 'cli-downloads');
    mkdirSync(cliFiles, { recursive: true });
    cliOut('fetch', second, '--patch', join(cliFiles, 'p.patch'), '--out', join(cliFiles, 'tree'));

    const patch = await saveOf('patch');
    assert.equal(patch.name, `${name}.patch`);
    assert.ok(patch.bytes.equals(readFileSync(join(cliFiles, 'p.patch'))), 'the patch is migrate-cli fetch --patch\'s');
    const tree = await saveOf('tree');
    assert.equal(tree.name, `${name}-hip.tar.zst`);  // as the translate worker stores it (zstd)
    writeFileSync(join(cliFiles, 'tree.tar.zst'), tree.bytes);
    const listed = execFileSync('tar', ['--zstd', '-tf', join(cliFiles, 'tree.tar.zst')], { encoding: 'utf8' }).split('\n')
      .filter((f) => f && !f.endsWith('/')).map((f) => f.replace(/^\.\//, '')).sort();
    const fetched = execFileSync('find', ['.', '-type', 'f'], { cwd: join(cliFiles, 'tree'), encoding: 'utf8' }).split('\n')
      .filter(Boolean).map((f) => f.replace(/^\.\//, '')).sort();
    assert.deepEqual(listed, fetched, 'the tar holds the tree migrate-cli fetch --out extracts');
    const sarif = await saveOf('sarif');
    assert.equal(sarif.name, `${name}.sarif`);
    assert.deepEqual(JSON.parse(sarif.bytes.toString('utf8')),
      JSON.parse(cliOut('report', second, '--format', 'sarif', '--help-uri-base', `${http}/rules/`)));
    const junit = await saveOf('junit');
    assert.equal(junit.name, `${name}-junit.xml`);
    assert.equal(junit.bytes.toString('utf8').trim(), cliOut('report', second, '--format', 'junit').trim());
    // A translate-only job has no build log: no button, and the page says why.
    assert.equal(await page.getByTestId('download-build-log').count(), 0);
    assert.match(await page.getByTestId('downloads').innerText(), /no build log/);
    // The API's types and names (the same token and team scoping as every view).
    const types = { patch: 'text/x-diff; charset=utf-8', tree: 'application/zstd', sarif: 'application/sarif+json',
                    junit: 'application/xml; charset=utf-8' };
    for (const [what, type] of Object.entries(types)) {
      const r = await fetch(`${http}/api/v1/jobs/${second}/download/${what}`, { headers: { authorization: `Bearer ${token}` } });
      assert.equal(r.status, 200, what);
      assert.equal(r.headers.get('content-type'), type, what);
      assert.match(r.headers.get('content-disposition'), new RegExp(`^attachment; filename="${name}`), what);
      const other = await fetch(`${http}/api/v1/jobs/${second}/download/${what}`, { headers: { authorization: `Bearer ${otherTeamToken}` } });
      assert.equal(other.status, 404, `${what} for another team`);
    }
    await shot('3c-job-downloads');
  });

  await check('job: the gate panel marks conditions the definition does not require and names its source', async () => {
    const gateCli = (...a) => execFileSync(serverBin, ['gate', ...a, '--data-dir', dataDir], { encoding: 'utf8' });
    const panel = async () => {
      await page.goto(`${http}/#/job/${second}`);
      await page.reload();  // the same job read again: the browser revalidates it (ETag)
      await page.getByTestId('gate-definition').waitFor();
      const gate = (await api(`jobs/${second}`)).summary.gate;
      const rows = await page.getByTestId('condition').evaluateAll((list) => list.map((r) =>
        ({ name: r.dataset.condition, required: r.dataset.required, words: r.querySelector('[data-testid=condition-required]').textContent })));
      assert.deepEqual(rows, gate.conditions.map((c) => ({ name: c.name, required: String(c.required),
        words: c.required ? 'required' : 'not required' })));
      return { gate, source: await page.getByTestId('gate-source').innerText(), text: await page.getByTestId('gate-definition').innerText() };
    };
    gateCli('set', '--team', 'web', '--require', 'builds,findings');
    try {
      const { gate, source, text } = await panel();
      assert.equal(gate.definition.source, 'team');
      assert.match(source, /team's definition/);
      assert.match(text, /requires builds, findings/);
      assert.deepEqual(gate.conditions.filter((c) => !c.required).map((c) => c.name), ['tests', 'parity', 'warnings']);
      assert.equal(await page.locator('[data-testid=condition][data-required=false]').count(), 3);
      await shot('3d-job-gate-team-definition');
    } finally {
      gateCli('unset', '--team', 'web');
    }
    const { gate, source } = await panel();
    assert.equal(gate.definition.source, 'default');
    assert.match(source, /default/);
    assert.equal(await page.locator('[data-testid=condition][data-required=false]').count(), 0);
  });

  await check('job: a builds verdict names what was not proved; library kernels fold apart (API answers stubbed)', async () => {
    const notProved = ['tests: 4 not run (not run on a GPU: compile-only worker)', 'parity: no case compared HIP\'s outputs with CUDA\'s'];
    await page.route(`**/api/v1/jobs/${second}`, async (route) => {
      const body = await (await route.fetch()).json();
      body.summary.verdict = { level: 'builds', not_proved: notProved };
      await route.fulfill({ json: body });
    });
    const kernel = (name, vgprs) => ({ name, vgprs, sgprs: 20, lds_bytes: 0, occupancy: 8, spills: 0 });
    const kernels = [kernel('vector_stats(float const*, int)', 24), kernel('void rocprim::detail::block_reduce_kernel<256u>(float*)', 30),
      kernel('void thrust::hip_rocprim::__parallel_for::kernel<256u>(int)', 12), kernel('_ZN3cub18DeviceReduceKernelIiEEvPi', 16)];
    await page.route(`**/api/v1/jobs/${second}/builds`, (route) => route.fulfill({ json: { builds: ['gfx90a', 'gfx942'].map((arch) =>
      ({ requested_arch: arch, arch, toolchain: 'rocm-6.4', ok: true, kernels })) } }));
    await page.goto(`${http}/#/compare/${first}/${second}`);  // leave and come back: the stubs answer the next load
    await page.goto(`${http}/#/job/${second}`);
    await page.getByTestId('verdict-headline').waitFor();
    assert.equal(await page.getByTestId('verdict-headline').innerText(), 'builds');
    assert.deepEqual(await page.getByTestId('not-proved').locator('li').allInnerTexts(), notProved);
    await page.getByTestId('builds').waitFor();
    assert.deepEqual(await page.getByTestId('builds').locator('[data-testid=kernel]').evaluateAll((rows) => rows.map((r) => r.dataset.kernel)),
      ['vector_stats(float const*, int)']);
    assert.equal(await page.getByTestId('library-kernels').getAttribute('data-count'), '3');
    assert.equal(await page.getByTestId('library-kernels').evaluate((d) => d.open), false, 'library kernels start folded');
    assert.match(await page.locator('[data-testid=library-kernels] summary').innerText(), /rocPRIM, Thrust, CUB/);
    await shot('3b-job-builds-stubbed');
    await page.unroute(`**/api/v1/jobs/${second}`);
    await page.unroute(`**/api/v1/jobs/${second}/builds`);
  });

  // The findings the API lists for one filter, all pages.
  const allFindings = async (job, params) => {
    const out = [];
    for (let token = ''; ;) {
      const q = new URLSearchParams({ ...params, page_size: '500', ...(token ? { page_token: token } : {}) });
      const page = await api(`jobs/${job}/findings?${q}`);
      out.push(...page.findings);
      if (!(token = page.next_page_token)) return out;
    }
  };
  const shownFindings = (scope) => scope.locator('[data-testid=finding]').evaluateAll((list) => list.map((f) =>
    ({ rule: f.dataset.rule, line: Number(f.dataset.line), path: f.dataset.path, severity: f.dataset.severity,
       autoFixed: f.dataset.autoFixed === 'true', inactive: f.dataset.inactive === 'true', fingerprint: f.dataset.fingerprint })));
  // Waits until the findings page shows the filters of the URL and every bucket's first page.
  const waitLoaded = async () => {
    await page.getByTestId('bucket').first().waitFor();
    await page.waitForFunction(() => {
      const section = document.querySelector('[data-testid=findings-page]');
      const query = location.hash.includes('?') ? '?' + location.hash.split('?')[1] : '';
      return section && new URLSearchParams(section.dataset.query.slice(1)).toString() === new URLSearchParams(query.slice(1)).toString()
        && [...document.querySelectorAll('[data-testid=bucket]')].every((b) => b.querySelector('[data-testid=bucket-findings]'));
    });
  };

  await check('findings: open work first (errors, warnings, notes needing a person, then auto-fixed), rule counts, short contexts', async () => {
    await page.goto(`${http}/#/job/${first}`);
    await page.getByTestId('findings-link').click();
    const rules = (await api(`jobs/${first}/findings/rules`)).rules;
    assert.ok(rules.length > 0, 'the first job has findings');
    await page.locator('[data-testid=rule]').nth(rules.length - 1).waitFor();
    for (const rule of rules) {
      assert.equal(await page.locator(`[data-testid=rule][data-rule="${rule.rule_id}"] [data-testid=rule-count]`).innerText(), String(rule.count));
    }
    await waitLoaded();
    const expected = [];
    for (const [severity, autoFixed] of [['error', 'false'], ['warning', 'false'], ['note', 'false'], [undefined, 'true']]) {
      expected.push(...await allFindings(first, { auto_fixed: autoFixed, inactive: 'false', ...(severity ? { severity } : {}) }));
    }
    assert.ok(expected.length <= 100, 'the example fits one page per bucket');
    const shown = await shownFindings(page);
    assert.deepEqual(shown.map((f) => f.fingerprint + f.line), expected.map((f) => f.fingerprint + f.line));
    const rank = (f) => f.autoFixed ? 3 : { error: 0, warning: 1, note: 2 }[f.severity];
    assert.ok(shown.every((f, i) => i === 0 || rank(shown[i - 1]) <= rank(f)), 'open errors, warnings, notes, then fixed');
    assert.ok(shown.some((f) => !f.autoFixed) && shown.some((f) => f.autoFixed), 'both open and fixed findings in the example');
    // One short context per finding, at the finding's own line.
    const contexts = await page.locator('[data-testid=finding]').evaluateAll((list) => list.map((f) => ({
      lines: f.querySelectorAll('[data-testid=context] > span').length, at: f.querySelector('[data-testid=context-at]')?.textContent ?? null,
      cuda: f.querySelector('[data-testid=cuda-line]')?.textContent ?? null })));
    assert.ok(contexts.every((c) => c.lines <= 12), `context lines: ${contexts.map((c) => c.lines)}`);
    assert.ok(contexts.some((c) => c.lines > 0), 'some finding shows its patch context');
    expected.forEach((f, i) => {
      if (!f.source_line) return;
      const text = (contexts[i].at ?? contexts[i].cuda ?? '').replace(/^\s*\d+[- +]/, '').trim();
      assert.equal(text, f.source_line.trim(), `${f.rule_id} ${f.path}:${f.line}`);
    });
    await shot('4-findings');
  });

  await check('findings filters: needs a person, severity, rule, file (counts as the API says), one file\'s patch', async () => {
    await page.getByTestId('filter-open').check();
    await page.waitForFunction(() => location.hash.includes('open=1'));
    await waitLoaded();
    const open = await allFindings(first, { auto_fixed: 'false', inactive: 'false' });
    let shown = await shownFindings(page);
    assert.equal(shown.length, open.length);
    assert.ok(shown.every((f) => !f.autoFixed));
    assert.equal(await page.locator('[data-testid=bucket][data-bucket=fixed]').count(), 0);

    await page.getByTestId('filter-severity').selectOption('warning');
    await page.waitForFunction(() => location.hash.includes('severity=warning'));
    await waitLoaded();
    shown = await shownFindings(page);
    assert.equal(shown.length, (await allFindings(first, { auto_fixed: 'false', inactive: 'false', severity: 'warning' })).length);
    assert.ok(shown.every((f) => f.severity === 'warning'));
    await shot('4b-findings-open-warnings');

    await page.getByTestId('filter-clear').click();
    await page.waitForFunction(() => !location.hash.includes('?'));
    const rule = (await api(`jobs/${first}/findings/rules`)).rules[0];
    await page.getByTestId('filter-rule').selectOption(rule.rule_id);
    await page.waitForFunction((r) => location.hash.includes(`rule=${r}`), rule.rule_id);
    await waitLoaded();
    shown = await shownFindings(page);
    assert.equal(shown.length, rule.count - rule.inactive, 'inactive findings stay hidden');
    assert.ok(shown.every((f) => f.rule === rule.rule_id));

    await page.getByTestId('filter-clear').click();
    await page.waitForFunction(() => !location.hash.includes('?'));
    await waitLoaded();
    const path = (await shownFindings(page)).find((f) => f.path).path;
    await page.locator(`[data-testid=finding][data-path="${path}"] [data-testid=finding-path]`).first().click();
    await page.waitForFunction(() => location.hash.includes('path='));
    await waitLoaded();
    shown = await shownFindings(page);
    assert.equal(shown.length, (await allFindings(first, { path, inactive: 'false' })).length);
    assert.ok(shown.every((f) => f.path === path));
    assert.equal(await page.getByTestId('filter-path').inputValue(), path);
    const hunks = (await api(`jobs/${first}/patch?path=${encodeURIComponent(path)}`)).hunks;
    if (hunks.length > 0) {
      const [saved] = await Promise.all([page.waitForEvent('download'), page.getByTestId('download-file-patch').click()]);
      const patch = readFileSync(await saved.path(), 'utf8');
      assert.ok(patch.startsWith(`--- a/${path}\n+++ b/${path}\n${hunks[0].header}\n`), patch.slice(0, 200));
    }
    await shot('4c-findings-one-file');
  });

  await check('findings: inactive findings (code the build does not compile) hidden by default with their count, shown on request', async () => {
    const inactive = await allFindings(first, { inactive: 'true' });
    assert.ok(inactive.length > 0, 'warp_extra.cu has an #if branch not taken');
    assert.equal(firstJob.summary.inactive, inactive.length);
    await page.goto(`${http}/#/job/${first}/findings`);
    await waitLoaded();
    assert.match(await page.getByTestId('inactive-hidden').innerText(),
      new RegExp(`^${inactive.length} finding\\(s\\) in code the build does not compile .* hidden`));
    assert.equal(await page.getByTestId('inactive-count').innerText(), String(inactive.length));
    assert.equal(await page.getByTestId('filter-inactive').isChecked(), false);
    assert.deepEqual((await shownFindings(page)).filter((f) => f.inactive), [], 'none listed by default');
    await page.getByTestId('show-inactive').click();
    await page.waitForFunction(() => location.hash.includes('inactive=1'));
    await waitLoaded();
    assert.equal(await page.getByTestId('filter-inactive').isChecked(), true);
    assert.equal(await page.getByTestId('inactive-hidden').count(), 0);
    const bucket = page.locator('[data-testid=bucket][data-bucket=inactive]');
    assert.match(await bucket.locator('h3').innerText(), /does not compile/);
    const listed = await shownFindings(bucket);
    assert.deepEqual(listed.map((f) => f.fingerprint + f.line), inactive.map((f) => f.fingerprint + f.line));
    assert.ok(listed.every((f) => f.inactive));
    assert.deepEqual(await bucket.getByTestId('fix-state').allInnerTexts(), inactive.map(() => 'inactive (not compiled)'));
    // Only in their own bucket: the open-work buckets still leave them out.
    const elsewhere = await page.locator('[data-testid=bucket]:not([data-bucket=inactive]) [data-testid=finding][data-inactive=true]').count();
    assert.equal(elsewhere, 0);
    await shot('4d-findings-inactive-shown');
  });

  await check('rule docs open rendered, not as raw Markdown', async () => {
    await page.goto(`${http}/#/job/${first}/findings`);
    const rule = (await api(`jobs/${first}/findings/rules`)).rules[0].rule_id;
    await page.locator(`[data-testid=rule][data-rule="${rule}"] [data-testid=rule-doc]`).click();
    await page.getByTestId('markdown').waitFor();
    const markdown = readFileSync(join(source, 'docs', 'rules', `${rule}.md`), 'utf8');
    assert.equal(await page.locator('[data-testid=markdown] h2').first().innerText(), markdown.split('\n')[0].replace(/^# /, ''));
    const text = await page.getByTestId('markdown').innerText();
    assert.ok(!/^#+ |```|\*\*/m.test(text), 'no Markdown syntax left in the text');
    if (markdown.includes('```')) assert.ok(await page.locator('[data-testid=markdown] pre code').count() > 0);
    if (/^- /m.test(markdown)) assert.ok(await page.locator('[data-testid=markdown] li').count() > 0);
    await shot('6-rule-doc');
  });

  await check('compare: fixed, new and unchanged counted and labelled as the API says', async () => {
    await page.goto(`${http}/#/repo/vector-app`);
    await page.locator('[data-testid=job-row]').nth(1).waitFor();
    await page.locator(`[data-testid=job-row][data-job="${first}"] [data-testid=pick]`).check();
    await page.locator(`[data-testid=job-row][data-job="${second}"] [data-testid=pick]`).check();
    await page.getByTestId('compare-link').click();
    const compare = await api(`compare?base=${first}&head=${second}`);
    await page.getByTestId('compare-fixed').waitFor();
    assert.equal(await page.getByTestId('compare-fixed').innerText(), String(compare.fixed));
    assert.equal(await page.getByTestId('compare-new').innerText(), String(compare.new));
    assert.equal(await page.getByTestId('compare-unchanged').innerText(), String(compare.unchanged));
    assert.ok(compare.fixed > 0, 'removing warp_extra.cu fixed findings');
    const labels = async (testid, count) => {
      const list = page.getByTestId(testid);
      if (count > 0) await list.locator('[data-testid=finding]').nth(Math.min(count, 100) - 1).waitFor();
      else await list.waitFor();
      assert.equal(await list.locator('[data-testid=finding]').count(), Math.min(count, 100));
      return list.locator('[data-testid=change-badge]').allInnerTexts();
    };
    const fixed = await labels('fixed-list', compare.fixed);
    assert.ok(fixed.length === Math.min(compare.fixed, 100) && fixed.every((l) => l === 'fixed'), `fixed badges: ${fixed}`);
    const added = await labels('new-list', compare.new);
    assert.ok(added.every((l) => l === 'new'), `new badges: ${added}`);
    await page.locator('[data-testid=unchanged-box] summary').click();
    const unchanged = await labels('unchanged-list', compare.unchanged);
    assert.ok(unchanged.every((l) => l === 'unchanged'), `unchanged badges: ${unchanged}`);
    await shot('5-compare');
  });

  // The lead's three questions, answered by reading the pages as a person does (visible text, links followed by
  // their words), each answer checked against the API.
  const portfolioRow = async (repository) => {
    await page.goto(`${http}/#/`);
    await page.reload();
    const row = page.getByRole('row').filter({ has: page.getByRole('link', { name: repository, exact: true }) });
    await row.waitFor();
    return row;
  };

  await check('lead: what is left to do, and what needs a person rather than the tool', async () => {
    const row = await portfolioRow('vector-app');
    const s = (await api(`jobs/${second}`)).summary;
    assert.ok(s.open_errors + s.open_warnings > 0, 'the example leaves work for a person');
    const [errors, warnings] = [await row.getByTestId('open-errors').innerText(), await row.getByTestId('open-warnings').innerText()];
    assert.deepEqual([errors, warnings], [String(s.open_errors), String(s.open_warnings)]);
    await row.getByRole('link', { name: 'vector-app' }).click();
    await page.getByRole('link', { name: second.slice(0, 8) }).click();
    await page.getByRole('link', { name: 'all open findings' }).click();
    await waitLoaded();
    const headings = await page.locator('[data-testid=bucket] h3').allInnerTexts();
    assert.deepEqual(headings, ['Errors needing a person (will not build or run on AMD)',
      'Warnings needing a person (may compute wrong on AMD)', 'Notes needing a person (performance)']);
    const bucketCount = (key) => page.locator(`[data-testid=bucket][data-bucket=${key}] [data-testid=finding]`).count();
    assert.equal(await bucketCount('open-error'), s.open_errors);
    assert.equal(await bucketCount('open-warning'), s.open_warnings);
    const open = await allFindings(second, { auto_fixed: 'false', inactive: 'false' });
    const states = await page.getByTestId('fix-state').allInnerTexts();
    assert.equal(states.length, open.length);
    assert.ok(states.every((t) => t === 'needs a person'), states.join());
    // What the tool already did is apart, labelled as the tool's.
    await page.getByLabel('needs a person').uncheck();
    await page.waitForFunction(() => !location.hash.includes('open=1'));
    await waitLoaded();
    const fixed = page.locator('[data-testid=bucket][data-bucket=fixed]');
    assert.equal(await fixed.locator('h3').innerText(), 'Fixed automatically by the translation');
    const byTool = await allFindings(second, { auto_fixed: 'true', inactive: 'false' });
    assert.deepEqual(await fixed.getByTestId('fix-state').allInnerTexts(), byTool.map(() => 'auto-fixed'));
    await shot('7a-lead-left-to-do');
  });

  await check('lead: is it proved to work (the verdict, never a pass for what was not proved)', async () => {
    const row = await portfolioRow('vector-app');
    const job = await api(`jobs/${second}`);
    const verdict = row.getByTestId('repository-verdict');
    assert.equal(await verdict.innerText(), expectedLevel(job).replace('_', ' '));
    assert.match(await verdict.getAttribute('title'), /not proved: no build was made/);
    assert.notEqual(await row.getByTestId('gate-status').innerText(), 'passed');
    await row.getByRole('link', { name: second.slice(0, 8) }).click();
    await page.getByTestId('verdict').waitFor();
    const panel = await page.getByTestId('verdict').innerText();
    assert.match(panel, /^Verdict: translated only/);
    assert.match(panel, /Not proved:\s*no build was made \(translation only\)/);
    // Nothing about behaviour was measured: no condition of the gate reads passed for it.
    for (const name of ['builds', 'tests', 'parity']) {
      const status = await page.locator(`[data-testid=condition][data-condition=${name}] .badge`).innerText();
      assert.equal(status, job.summary.gate.conditions.find((c) => c.name === name).status);
      assert.notEqual(status, 'passed', name);
    }
    await shot('7b-lead-proved');
  });

  await check('lead: is it getting better (trend arrow, then what changed since the previous job)', async () => {
    const row = await portfolioRow('vector-app');
    const repo = (await api('teams/web/repositories?repository=vector-app')).repositories[0];
    const [before, after] = [repo.previous_gate_job.summary, repo.gate_job.summary];
    assert.ok(openWork(after) < openWork(before), `open work ${openWork(before)} -> ${openWork(after)}`);
    const trend = row.getByTestId('trend');
    assert.equal(await trend.innerText(), '▲ better');
    assert.match(await trend.getAttribute('title'),
      new RegExp(`open errors ${before.open_errors} → ${after.open_errors}, may-compute-wrong warnings ${before.open_warnings} → ${after.open_warnings}`));
    const cleanRow = await portfolioRow('clean-app');
    assert.equal(await cleanRow.getByTestId('trend').innerText(), '· no earlier job');
    await page.goto(`${http}/#/job/${second}`);
    await page.getByRole('link', { name: 'Compare with previous job →' }).click();
    const compare = await api(`compare?base=${first}&head=${second}`);
    await page.getByTestId('compare-fixed').waitFor();
    assert.equal(await page.getByTestId('compare-fixed').innerText(), String(compare.fixed));
    assert.equal(await page.getByTestId('compare-new').innerText(), String(compare.new));
    assert.equal(await page.getByTestId('compare-open-errors').innerText(), `${before.open_errors} → ${after.open_errors}`);
    await shot('7c-lead-better');
  });

  await check('another team sees nothing of this team (404), no token is 401', async () => {
    const other = await fetch(`${http}/api/v1/jobs/${first}`, { headers: { authorization: `Bearer ${otherTeamToken}` } });
    assert.equal(other.status, 404);
    const none = await fetch(`${http}/api/v1/jobs/${first}`);
    assert.equal(none.status, 401);
    const page2 = await browser.newPage();
    await page2.goto(`${http}/#token=${encodeURIComponent(otherTeamToken)}`);
    await page2.waitForLoadState('networkidle');
    assert.equal(await page2.locator('[data-testid=repository-row][data-repository="vector-app"]').count(), 0);
    await page2.close();
  });
  await check('no script errors in the page', () => assert.deepEqual(consoleErrors, []));
} catch (error) {
  ++failed;
  console.log(`not ok - setup\n${error.stack}`);
} finally {
  await cleanup();
}
console.log(`${passed} passed, ${failed} failed`);
console.log(`screenshots: ${artifacts}`);
process.exit(failed === 0 ? 0 : 1);
