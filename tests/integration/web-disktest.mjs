// web-disktest.mjs: the disk analyzer started from the page, for
// 63-web-disktest.sh: the volume ticked, progress shown while it runs,
// the result's figures as the API gives them, and the volume's new
// baseline in the live view.  Environment as web-lib.mjs, and VOLUME.
import { apiGet, complaints, failed, ok, openPage, statusError, until }
    from './web-lib.mjs';

const env = process.env;
const { browser, page, shot } = await openPage({ login: true });
const mb = (b) => `${(b / 1e6).toFixed(1)} MB/s`;
const rate = (b) => (b >= 1e9 ? `${(b / 1e9).toFixed(2)} GB/s` : mb(b));

try {
	await page.click('nav a[data-view=tests]');
	await page.waitForSelector('#dt-targets input');
	const names = await page.$$eval('#dt-targets input', (b) =>
	    b.map((x) => x.value));
	ok(`the configured volume is offered (${names.join(' ')})`,
	    names.includes(env.VOLUME));
	await page.check(`#dt-targets input[value="${env.VOLUME}"]`);
	await page.selectOption('#dt-kind', 'seq');
	await page.fill('#dt-seconds', env.STEP_SECONDS);
	await page.fill('#dt-size', env.SIZE_MIB);
	await page.click('#dt-start');

	// Progress while it runs: the bar moves and names the step.
	const seen = new Set();
	let steps = '';
	const done = await until(async () => {
		if (await page.isVisible('#dt-progress')) {
			seen.add(await page.$eval('#dt-bar', (b) => b.value));
			steps = await page.textContent('#dt-step') || steps;
		}
		return page.$('#dt-result h3');
	}, 120000);
	ok('the test ran to its end on the page', !!done);
	const moving = [...seen].filter((v) => v > 0 && v < 1);
	ok(`progress was shown while it ran (${moving.length} readings ` +
	    `between 0 and 1; last "${steps.trim()}")`, moving.length >= 1 &&
	    /step \d+ of \d+/.test(steps));
	await shot('1-disktest');

	// The figures on the page are the API's.
	const list = await apiGet('v1/disktests');
	const id = Math.max(...list.disktests.map((t) => t.id));
	const doc = await apiGet(`v1/disktests/${id}`);
	ok(`the test is done (${doc.state})`, doc.state === 'done',
	    doc.error ?? '');
	const vol = (doc.volumes ?? [])[0] ?? {};
	const cells = await page.$$eval('.dt-volume tbody tr', (rows) =>
	    rows.map((r) => [...r.cells].map((c) => c.textContent)));
	const measured = cells.find((r) => r[0] === 'measured') ?? [];
	const expected = cells.find((r) => r[0] === 'expected') ?? [];
	ok(`the volume's measured write and read are shown (${measured[1]}, ` +
	    `${measured[2]})`, measured[1] === rate(vol.write?.bytes_per_s) &&
	    measured[2] === rate(vol.read?.bytes_per_s),
	    JSON.stringify({ measured, write: vol.write, read: vol.read }));
	ok(`and beside them what its disk leads to expect (${expected[2]})`,
	    expected[2] === rate(vol.expected?.read_bytes_per_s),
	    JSON.stringify({ expected, ex: vol.expected }));
	const disk = (doc.disks ?? [])[0] ?? {};
	const drow = await page.$$eval('#dt-disks tbody tr', (rows) =>
	    rows.map((r) => [...r.cells].map((c) => c.textContent)));
	ok(`the volume's disk and its zones are shown (${drow[0]?.[0]}: ` +
	    `outer ${drow[0]?.[2]})`, drow.length === (doc.disks ?? []).length &&
	    drow[0]?.[0] === disk.name && drow[0]?.[2] ===
	    rate(disk.zones?.outer?.bytes_per_s));

	// The live view now sets the volume against its baseline.
	await page.click('nav a[data-view=live]');
	const row = await until(() => page.$$eval('#volumes tbody tr',
	    (rows, v) => rows.map((r) => [...r.cells].map((c) =>
	    c.textContent)).find((c) => c[0] === v), env.VOLUME), 8000);
	ok(`the live view shows the volume's measured read (${row?.[5]})`,
	    row && row[5] === rate(vol.read?.bytes_per_s),
	    JSON.stringify(row));
	await shot('2-live-baseline');
	ok('no script error and no policy violation in the console',
	    complaints.length === 0, complaints.join(' | '));
	const bad = await statusError(page);
	ok(`the status line reports no error (${bad || 'none'})`, bad === '');
} catch (e) {
	ok('the disk test page ran to its end', false, e.stack);
	await shot('error').catch(() => {});
} finally {
	await browser.close();
}
process.exit(failed() ? 1 : 0);
