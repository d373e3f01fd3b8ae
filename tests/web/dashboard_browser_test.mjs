// End-to-end: a real migrate-server (embedded PostgreSQL, one in-process translate worker) with its
// dashboard, two real jobs of one git repository (the second with fewer findings) submitted by
// migrate-cli, and headless Debian Chromium driven by playwright-core through
// overview -> repository -> job -> findings -> compare, each view checked against the API's JSON.
// Screenshots of every view go to --artifacts.
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
  // with warp-size assumptions that the analyzer flags, the second removes it.
  const repo = join(work, 'vector-app');
  cpSync(join(source, 'examples', 'cuda-vector-stats'), repo, { recursive: true });
  writeFileSync(join(repo, 'warp_extra.cu'), `#include <cuda_runtime.h>
__global__ void warp_sum(const float* in, float* out) {
  float v = in[threadIdx.x];
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffff, v, offset);
  if (threadIdx.x % 32 == 0) out[threadIdx.x / 32] = v;
  unsigned ballot = __ballot_sync(0xffffffff, v > 0.0f);
  if (ballot == 0xffffffff) out[0] = 0;
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
  const api = async (path) => {
    const r = await fetch(`${http}/api/v1/${path}`, { headers: { authorization: `Bearer ${token}` } });
    assert.equal(r.status, 200, `${path}: ${r.status}`);
    return r.json();
  };

  const first = cli('submit', repo, '--translate-only', '--wait', '--wait-timeout', '600');
  git('rm', '-q', 'warp_extra.cu');
  git('commit', '-q', '-m', 'drop the warp-size assumptions');
  const second = cli('submit', repo, '--translate-only', '--wait', '--wait-timeout', '600');
  const [firstJob, secondJob] = [await api(`jobs/${first}`), await api(`jobs/${second}`)];
  await check('the second job has fewer findings than the first', () => {
    assert.equal(firstJob.spec.repository, 'vector-app');
    assert.equal(secondJob.spec.repository, 'vector-app');
    assert.notEqual(firstJob.spec.commit, secondJob.spec.commit);
    assert.ok(secondJob.summary.findings < firstJob.summary.findings,
      `findings ${firstJob.summary.findings} -> ${secondJob.summary.findings}`);
  });

  browser = await chromium.launch({ executablePath: chromiumPath,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'] });
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  const consoleErrors = [];
  page.on('pageerror', (e) => consoleErrors.push(String(e)));
  const shot = (name) => page.screenshot({ path: join(artifacts, `${name}.png`), fullPage: true });

  await check('sign-in form without a token', async () => {
    await page.goto(`${http}/`);
    await page.getByTestId('signin').waitFor();
    await shot('0-signin');
  });

  await check('overview: the repository and its gate as the API says', async () => {
    await page.goto(`${http}/#token=${encodeURIComponent(token)}`);
    const overview = await api('teams/web/repositories');
    const row = page.locator('[data-testid=repository-row][data-repository="vector-app"]');
    await row.waitFor();
    const expected = overview.repositories.find((r) => r.repository === 'vector-app');
    assert.equal(await row.getByTestId('gate-status').innerText(), expected.gate_job.summary.gate.status);
    assert.equal(await row.getByTestId('open-errors').innerText(), String(expected.gate_job.summary.open_errors));
    assert.ok(!page.url().includes('token='), 'the token left the URL');
    await shot('1-overview');
  });

  await check('repository: its jobs and trend charts', async () => {
    await page.locator('[data-testid=repository-row] a', { hasText: 'vector-app' }).click();
    await page.getByTestId('repository-name').waitFor();
    const jobs = (await api('jobs?repository=vector-app')).jobs;
    await page.locator('[data-testid=job-row]').nth(jobs.length - 1).waitFor();
    assert.equal(await page.locator('[data-testid=job-row]').count(), jobs.length);
    for (const job of jobs) {
      assert.equal(await page.locator(`[data-testid=job-row][data-job="${job.id}"] [data-testid=job-findings]`).innerText(),
        String(job.summary.findings));
    }
    await page.getByTestId('trend-findings').locator('canvas').waitFor();
    await shot('2-repository');
  });

  await check('job: translation summary and gate of the second job', async () => {
    await page.locator(`[data-testid=job-row][data-job="${second}"] a`).first().click();
    await page.getByTestId('job-id').waitFor();
    assert.equal(await page.getByTestId('findings-count').innerText(), String(secondJob.summary.findings));
    assert.equal(await page.getByTestId('files').innerText(), String(secondJob.translation.totals.files));
    assert.equal(await page.getByTestId('job-state').innerText(), 'succeeded');
    await shot('3-job');
  });

  await check('findings: rule groups, counts, CUDA lines', async () => {
    await page.goto(`${http}/#/job/${first}`);
    await page.getByTestId('findings-link').click();
    const rules = (await api(`jobs/${first}/findings/rules`)).rules;
    assert.ok(rules.length > 0, 'the first job has findings');
    await page.locator('[data-testid=rule]').nth(rules.length - 1).waitFor();
    for (const rule of rules) {
      assert.equal(await page.locator(`[data-testid=rule][data-rule="${rule.rule_id}"] [data-testid=rule-count]`).innerText(),
        String(rule.count));
    }
    const rule = rules[0].rule_id;
    await page.locator(`[data-testid=rule][data-rule="${rule}"] summary`).click();
    const findings = (await api(`jobs/${first}/findings?rule=${encodeURIComponent(rule)}`)).findings;
    const shown = page.locator(`[data-testid=rule][data-rule="${rule}"] [data-testid=finding]`);
    await shown.nth(findings.length - 1).waitFor();
    assert.equal(await shown.count(), findings.length);
    const withLine = findings.findIndex((f) => f.source_line);
    if (withLine >= 0) {
      assert.equal((await shown.nth(withLine).getByTestId('cuda-line').innerText()).trim(), findings[withLine].source_line.trim());
    }
    assert.equal(await shown.first().getByTestId('fix-state').innerText(), findings[0].auto_fixed ? 'auto-fixed' : 'needs a person');
    await shot('4-findings');
  });

  await check('compare: fixed and new between the two jobs', async () => {
    await page.goto(`${http}/#/repo/vector-app`);
    await page.locator('[data-testid=job-row]').nth(1).waitFor();
    await page.locator(`[data-testid=job-row][data-job="${first}"] [data-testid=pick]`).check();
    await page.locator(`[data-testid=job-row][data-job="${second}"] [data-testid=pick]`).check();
    await page.getByTestId('compare-link').click();
    const compare = await api(`compare?base=${first}&head=${second}`);
    await page.getByTestId('compare-fixed').waitFor();
    assert.equal(await page.getByTestId('compare-fixed').innerText(), String(compare.fixed));
    assert.equal(await page.getByTestId('compare-new').innerText(), String(compare.new));
    assert.ok(compare.fixed > 0, 'removing warp_extra.cu fixed findings');
    await page.getByTestId('fixed-list').locator('[data-testid=finding]').nth(Math.min(compare.fixed, 100) - 1).waitFor();
    assert.equal(await page.getByTestId('fixed-list').locator('[data-testid=finding]').count(), Math.min(compare.fixed, 100));
    await shot('5-compare');
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
