// web-lib.mjs: what the page's browser tests share: the environment the
// shell test gives (URL, TOKEN, SHOTS, SEED, PLAYWRIGHT, CHROMIUM), a
// generator from the seed, "ok - " lines, polling, and Chromium with the
// console watched.
const env = process.env;

// A small generator from the seed, so that a run can be repeated.
let seed = Number(env.SEED) >>> 0 || 1;
export function pick(lo, hi) {
	seed = (seed * 1103515245 + 12345) >>> 0;
	return lo + Math.floor(seed / 2 ** 32 * (hi - lo + 1));
}

let nfailed = 0;
export const failed = () => nfailed;
export function ok(what, cond, why = '') {
	if (cond) {
		console.log(`ok - ${what}`);
	} else {
		nfailed++;
		console.log(`not ok - ${what}${why ? `: ${why}` : ''}`);
	}
	return cond;
}

// GET path (relative to URL) with the token, as JSON.
export async function apiGet(path) {
	const r = await fetch(new globalThis.URL(path, env.URL), {
		headers: { Authorization: `Bearer ${env.TOKEN}` },
	});
	return r.json();
}

// Until fn() is true, or ms pass; its last value.
export async function until(fn, ms) {
	const end = Date.now() + ms;
	let v;
	while (Date.now() < end) {
		v = await fn();
		if (v)
			return v;
		await new Promise((r) => setTimeout(r, 250));
	}
	return v;
}

// "12.3 MB/s" and the like as bytes per second.
export function rateOf(text) {
	const m = /([\d.]+)\s*(GB|MB|kB|B)\/s/.exec(text ?? '');
	if (!m)
		return NaN;
	return Number(m[1]) * { GB: 1e9, MB: 1e6, kB: 1e3, B: 1 }[m[2]];
}

// Script errors and policy violations seen in the console.
export const complaints = [];

// What the page's status line said went wrong ("lost the daemon: ...")
// at any moment since the page loaded, joined, else ''.  A failure there
// may last only until the next refresh succeeds, so openPage has every
// document record each one as it is shown.
export async function statusError(page) {
	return page.evaluate(() => [...new Set(window.npStatusErrors ?? [])]
	    .join(' | '));
}

function watchStatus() {
	window.npStatusErrors = [];
	document.addEventListener('DOMContentLoaded', () => {
		const s = document.querySelector('#status');
		if (s == null)
			return;
		new MutationObserver(() => {
			if (s.classList.contains('bad'))
				window.npStatusErrors.push(s.textContent);
		}).observe(s, { attributes: true, childList: true,
		    characterData: true, subtree: true });
	});
}

// Debian's Chromium with a fresh profile and no network chatter; the page
// at URL opened and logged in when login is true; a certificate no CA
// signed (nasperfd's own, with api.tls) taken when tls is true.
export async function openPage({ login = false, tls = false } = {}) {
	const { chromium } = await import(env.PLAYWRIGHT);
	const browser = await chromium.launch({
		executablePath: env.CHROMIUM,
		args: ['--no-sandbox', '--disable-gpu', '--disable-quic',
		    '--no-first-run', '--disable-background-networking',
		    '--disable-component-update', '--disable-sync',
		    ...(tls ? ['--ignore-certificate-errors'] : [])],
	});
	const page = await browser.newPage({ viewport: { width: 1280,
	    height: 900 } });
	page.on('console', (m) => {
		if (m.type() === 'error' && !/status of 401/.test(m.text()))
			complaints.push(m.text());
	});
	page.on('pageerror', (e) => complaints.push(`page error: ${e.message}`));
	await page.addInitScript(watchStatus);
	const shot = (name) => page.screenshot({ path: `${env.SHOTS}/${name}.png`,
	    fullPage: true });
	if (login) {
		await page.goto(env.URL);
		await page.fill('#token', env.TOKEN);
		await page.click('#login-form button[type=submit]');
		await page.waitForSelector('#view-live:not([hidden])',
		    { timeout: 10000 });
	}
	return { browser, page, shot };
}
