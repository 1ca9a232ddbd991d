// web-tls.mjs: the page over TLS in a real Chromium, for 65-web-tls.sh:
// served over https by a nasperfd with api.tls, logged in, and its
// network test, a download then an upload against a data plane with
// synth.tls, each with a rate and a verdict; or, when the data plane is
// plain (PLAIN_SYNTH=1), the page's message saying to turn synth.tls on.
// Prints "ok - WHAT" or "not ok - WHAT: why" lines.
//
// Environment: URL, TOKEN, SHOTS, SEED, PLAYWRIGHT, CHROMIUM, PLAIN_SYNTH.
import { complaints, failed, ok, openPage, rateOf, statusError, until }
    from './web-lib.mjs';

const env = process.env;
const { browser, page, shot } = await openPage({ login: true, tls: true });

try {
	ok('the page is served and logged in over https',
	    page.url().startsWith('https://') &&
	    await page.isVisible('#view-live'));
	await page.click('nav a[data-view=tests]');
	await page.waitForSelector('#view-tests:not([hidden])');
	await page.fill('#net-seconds', '2');
	if (env.PLAIN_SYNTH === '1') {
		await page.click('#net-down');
		const err = await until(async () => await page.isVisible(
		    '#net-error') && page.textContent('#net-error'), 10000);
		ok('with a plain data plane the page says to turn synth.tls on',
		    /synth\.tls/.test(err ?? ''), err);
		await shot('plain-synth');
	} else {
		for (const [button, what] of [['#net-down', 'download'],
		    ['#net-up', 'upload']]) {
			const before = await page.$$eval('#net-results tbody tr',
			    (r) => r.length);
			await page.click(button);
			const row = await until(() => page.$$eval(
			    '#net-results tbody tr', (rows, n) => rows.length >
			    n ? [...rows[0].cells].map((c) => c.textContent) :
			    null, before), 25000);
			const err = await page.isVisible('#net-error') ?
			    await page.textContent('#net-error') : '';
			ok(`the browser's ${what} over TLS ran (${row?.[1]} in ` +
			    `${row?.[2]} s, ${row?.[3]}, ${row?.[4]})`,
			    row && rateOf(row[3]) > 10e6 && row[4].length > 0,
			    err);
		}
		await shot('network-tls');
	}
	ok('no script error or policy violation', complaints.length === 0,
	    complaints.join(' | '));
	const bad = await statusError(page);
	ok(`the status line reports no error (${bad || 'none'})`, bad === '');
} catch (e) {
	ok('the page test ran to its end', false, e.stack);
	await shot('failure').catch(() => {});
} finally {
	await browser.close();
}
process.exit(failed() ? 1 : 0);
