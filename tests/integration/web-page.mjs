// web-page.mjs: the page in a real Chromium against the real daemon, for
// 61-web.sh, driven by playwright-core.  Prints "ok - WHAT" or
// "not ok - WHAT: why" lines, which the shell test numbers, and saves a
// screenshot at each step into SHOTS.
//
// Environment: URL (the page, ending in /), TOKEN, TOKEN_READ, NASPERF
// (the client), API (host:port for the client), SHOTS, SEED, PLAYWRIGHT
// (the module), CHROMIUM, NCPU.
import { spawn } from 'node:child_process';
import { apiGet, complaints, failed, ok, openPage, pick, rateOf,
    statusError, until } from
    './web-lib.mjs';

const env = process.env;
const { browser, page, shot } = await openPage();
// The page's own byte format (app.js fmtBytes).
const fmtBytesLike = (b) => (b >= 1e9 ? `${(b / 1e9).toFixed(2)} GB` :
    b >= 1e6 ? `${(b / 1e6).toFixed(1)} MB` : b >= 1e3 ?
    `${(b / 1e3).toFixed(0)} kB` : `${b} B`);

try {
	// 1. The token prompt, then a wrong token.
	await page.goto(env.URL);
	await page.waitForSelector('#login:not([hidden])', { timeout: 10000 });
	ok('the page asks for the token first',
	    await page.isVisible('#token') && !await page.isVisible('#nav'));
	await shot('1-login');
	await page.fill('#token', 'not-the-token-' + pick(1000, 9999));
	await page.click('#login-form button[type=submit]');
	await page.waitForSelector('#login-error:not([hidden])',
	    { timeout: 10000 });
	const wrong = await page.textContent('#login-error');
	ok('a wrong token is refused with a clear message',
	    /refused the token/.test(wrong) && /token/.test(wrong) &&
	    !await page.isVisible('#view-live'), wrong);
	await shot('2-wrong-token');

	// 2. The right token: the live view fills in.
	await page.fill('#token', env.TOKEN);
	await page.click('#login-form button[type=submit]');
	await page.waitForSelector('#view-live:not([hidden])',
	    { timeout: 10000 });
	await until(() => page.$$eval('#nics tbody tr', (r) => r.length), 8000);
	const stored = await page.evaluate(() =>
	    sessionStorage.getItem('nasperf.token'));
	ok('the token is kept in the tab\'s session storage, not a cookie',
	    stored === env.TOKEN && (await page.context().cookies()).length ===
	    0);
	const cpuCharts = await page.$$eval('#cpu-charts .uplot',
	    (c) => c.length);
	ok(`one CPU chart per core (${cpuCharts} of ${env.NCPU})`,
	    cpuCharts === Number(env.NCPU));
	const nicRows = await page.$$eval('#nics tbody tr', (r) =>
	    r.map((tr) => tr.cells[0].textContent));
	ok(`the interfaces are listed (${nicRows.join(' ')})`,
	    nicRows.includes('lo'));
	ok('the serving processes list the daemon itself',
	    /nasperfd/.test(await page.textContent('#groups')));
	// Rows, or the line saying why there are none: read together, as
	// the page may be between the two when another client's session
	// ends (an smbd of another test on this machine).
	let sess = 0, none = '';
	await until(async () => {
		[sess, none] = await page.$eval('#smb-sessions', (t) => [
		    t.querySelectorAll('tbody tr').length,
		    document.getElementById('smb-sessions-none').textContent]);
		return sess > 0 || /Samba|smbstatus|No SMB session/.test(none);
	}, 5000);
	ok(`the SMB sessions are listed, or why none is (${sess} rows; ` +
	    `"${none}")`, sess > 0 || /Samba|smbstatus|No SMB session/
	    .test(none));
	await shot('3-live');

	// 3. A synth download: the loopback interface's rate rises on the
	// page, and the run is listed under way with its verdict.
	const secs = pick(6, 9);
	const label = `web-synth-${pick(100000, 999999)}`;
	const synth = spawn(env.NASPERF, ['-H', env.API, 'synth', '--time',
	    String(secs), '--label', label], { env: { ...env,
	    NASPERF_TOKEN: env.TOKEN }, stdio: ['ignore', 'pipe', 'pipe'] });
	let synthOut = '';
	synth.stdout.on('data', (b) => { synthOut += b; });
	synth.stderr.on('data', (b) => { synthOut += b; });
	const synthDone = new Promise((r) => synth.on('close', r));
	const loRx = () => page.$$eval('#nics tbody tr', (rows) => {
		const r = rows.find((tr) => tr.cells[0].textContent === 'lo');
		return r ? r.cells[1].textContent : null;
	});
	let peak = 0;
	const seenRun = await until(async () => {
		peak = Math.max(peak, rateOf(await loRx()) || 0);
		const t = await page.textContent('#live-transfers');
		return peak > 10e6 && t.includes(label) ? t : null;
	}, secs * 1000 + 4000);
	ok(`the loopback rate rose on the page during a ${secs} s download ` +
	    `(peak ${(peak / 1e6).toFixed(0)} MB/s)`, peak > 10e6);
	ok('the synth run is listed under way', !!seenRun);
	const badge = await until(() => page.$eval('#live-transfers',
	    (t) => t.querySelector('.badge')?.textContent ?? null), 6000);
	ok(`the run under way has a live verdict (${badge})`, !!badge);
	await shot('4-live-synth');
	const rc = await synthDone;
	ok('nasperf synth finished', rc === 0, synthOut.slice(-400));

	// 4. A run marked by the buttons, as around a GUI benchmark.
	await page.click('nav a[data-view=tests]');
	await page.waitForSelector('#view-tests:not([hidden])');
	const mlabel = `web-mark-${pick(100000, 999999)}`;
	const op = ['read', 'write'][pick(0, 1)];
	await page.selectOption('#mark-op', op);
	await page.selectOption('#mark-protocol', 'smb3');
	await page.fill('#mark-label', mlabel);
	await page.click('#mark-start');
	await page.waitForSelector('#mark-end-form:not([hidden])',
	    { timeout: 10000 });
	const id = Number(await page.textContent('#mark-id'));
	const open = await apiGet(`v1/runs?open=1`);
	const mine = (open.runs ?? []).find((r) => r.id === id);
	ok(`Start opened run ${id} with the label and operation`,
	    mine && mine.label === mlabel && mine.op === op,
	    JSON.stringify(mine));
	await page.waitForTimeout(pick(1500, 3000));
	const mb = pick(50, 900);
	await page.fill('#mark-bytes', String(mb));
	await page.selectOption('#mark-unit', '1000000');
	await page.click('#mark-end');
	await page.waitForSelector('#mark-result .badge', { timeout: 15000 });
	const shown = await page.textContent('#mark-result .badge');
	const rep = await apiGet(`v1/runs/${id}/report`);
	ok(`End closed the run with its bytes (${mb} MB)`,
	    rep.run?.state === 'ended' && rep.run?.bytes === mb * 1e6,
	    JSON.stringify(rep.run));
	ok(`the page shows the run's verdict (${shown})`,
	    shown === rep.verdict?.class, `${shown} vs ${rep.verdict?.class}`);
	await shot('5-mark');

	// 5. The run's page: verdict, evidence, charts of its window.
	await page.click('#mark-result a');
	await page.waitForSelector('#view-run:not([hidden])');
	await until(() => page.$$eval('#run-charts .uplot', (c) => c.length),
	    5000);
	const charts = await page.$$eval('#run-charts .uplot', (c) => c.length);
	ok(`the run's page draws its window (${charts} charts)`, charts >= 3);
	ok('the run\'s page gives the verdict and evidence',
	    (await page.textContent('#run-verdict')).includes(
	    rep.verdict?.summary ?? '\u0000') &&
	    await page.$$eval('#run-evidence tbody tr', (r) => r.length) ===
	    (rep.evidence ?? []).length);
	const title = await page.textContent('#run-title');
	ok(`the run's page is titled with its id and label (${title})`,
	    title === `Run ${id}: ${mlabel}`);
	const nextItems = await page.$$eval('#run-next li', (l) => l.length);
	ok(`and what to try next (${nextItems} of ${(rep.next ?? []).length})`,
	    nextItems === (rep.next ?? []).length && nextItems > 0);
	await shot('6-run');

	// 6. The list, and two runs side by side.
	await page.click('a[href="#runs"]');
	await page.waitForSelector('#view-runs:not([hidden])');
	await until(() => page.$$eval('#runs tbody tr', (r) => r.length), 5000);
	const boxes = await page.$$('#runs tbody input[type=checkbox]');
	ok(`the list holds the runs (${boxes.length})`, boxes.length >= 2);
	if (boxes.length >= 2) {
		await boxes[0].check();
		await boxes[1].check();
		await page.click('#compare');
		await page.waitForSelector('#compare-out table');
		const cols = await page.$$eval('#compare-out thead th',
		    (t) => t.length);
		ok('two runs are compared side by side', cols === 3);
	}
	await shot('7-runs');

	// 7. The network test from the browser: a download then an upload
	// against the data plane (another port: CORS and the policy allow
	// it), each a run with its verdict.
	await page.click('nav a[data-view=tests]');
	await page.waitForSelector('#view-tests:not([hidden])');
	const nsecs = pick(2, 4);
	await page.fill('#net-seconds', String(nsecs));
	for (const [button, op] of [['#net-down', 'read'], ['#net-up',
	    'write']]) {
		const before = await page.$$eval('#net-results tbody tr',
		    (r) => r.length);
		await page.click(button);
		const row = await until(() => page.$$eval(
		    '#net-results tbody tr', (rows, n) => rows.length > n ?
		    [...rows[0].cells].map((c) => c.textContent) : null,
		    before), nsecs * 1000 + 20000);
		const err = await page.isVisible('#net-error') ?
		    await page.textContent('#net-error') : '';
		ok(`the browser's ${op === 'read' ? 'download' : 'upload'} ` +
		    `ran (${row?.[1]} in ${row?.[2]} s, ${row?.[3]})`,
		    row && rateOf(row[3]) > 10e6, err);
		const href = await page.$eval('#net-results tbody tr a',
		    (a) => a.getAttribute('href'));
		const nid = Number(href.split('/')[1]);
		const nrep = await apiGet(`v1/runs/${nid}/report`);
		ok(`it is run ${nid}, protocol http, op ${op}, ended with ` +
		    `the browser's bytes (${nrep.run?.bytes})`,
		    nrep.run?.protocol === 'http' && nrep.run?.op === op &&
		    nrep.run?.state === 'ended' && nrep.run?.bytes > 0 &&
		    row && row[1] === fmtBytesLike(nrep.run.bytes),
		    JSON.stringify(nrep.run));
		ok(`and the page shows its verdict (${row?.[4]})`, row &&
		    row[4].startsWith(nrep.verdict?.class ?? '\u0000'));
	}
	await shot('8-network');
	// The download's run page names what served it: the daemon itself.
	await page.click('#net-results tbody tr:last-child a');
	await page.waitForSelector('#view-run:not([hidden])');
	// Until the view shows that run: it may still hold the run shown
	// before while the report loads, on a busy machine.
	let served = '';
	await until(async () => {
		served = await page.$eval('#run-path', (d) => d.textContent);
		return /nasperfd/.test(served ?? '') && /%/.test(served ?? '');
	}, 10000);
	ok('the download\'s page names its serving process and its CPU',
	    /nasperfd/.test(served ?? '') && /%/.test(served ?? ''), served);
	await page.click('nav a[data-view=tests]');

	// 8. Forgetting the token asks for it again.
	await page.click('#forget');
	ok('Forget token clears it and asks again',
	    await page.isVisible('#login') && await page.evaluate(() =>
	    sessionStorage.getItem('nasperf.token')) === null);

	// 9. The read-only token: the live view, but no tests.
	await page.fill('#token', env.TOKEN_READ);
	await page.click('#login-form button[type=submit]');
	await page.waitForSelector('#nav:not([hidden])', { timeout: 10000 });
	await page.click('nav a[data-view=live]');
	await page.waitForSelector('#view-live:not([hidden])',
	    { timeout: 10000 });
	const liveRows = await until(() => page.$$eval('#nics tbody tr',
	    (r) => r.length), 8000);
	ok(`the read-only token opens the live view (${liveRows} ` +
	    'interfaces)', liveRows > 0);
	await page.click('nav a[data-view=tests]');
	await page.waitForSelector('#scope-note:not([hidden])',
	    { timeout: 5000 });
	const off = await page.$$eval('#view-tests form button',
	    (b) => b.every((x) => x.disabled));
	ok('with it the tests are off, and the page says why',
	    off && /control token/.test(await page.textContent(
	    '#scope-note')));
	await shot('9-read-only');

	ok('no script error and no policy violation in the console',
	    complaints.length === 0, complaints.join(' | '));
	const bad = await statusError(page);
	ok(`the status line reports no error (${bad || 'none'})`, bad === '');
} catch (e) {
	ok('the page test ran to its end', false, e.stack);
	await shot('error').catch(() => {});
} finally {
	await browser.close();
}
process.exit(failed() ? 1 : 0);
