// page-watch.mjs: one browser on the page's live view for SECONDS, for
// bench/page-cost.  Environment as tests/integration/web-lib.mjs.
import { openPage } from '../tests/integration/web-lib.mjs';

const { browser, page } = await openPage({ login: true });
await page.waitForTimeout(Number(process.env.SECONDS_) * 1000);
const rows = await page.$$eval('#nics tbody tr', (r) => r.length);
await browser.close();
if (rows === 0) {
	console.error('page-watch: the live view showed no interface');
	process.exit(1);
}
