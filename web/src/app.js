// app.js: the page nasperfd serves.  It asks for the token once, keeps
// it in this tab's session storage, and sends it as a bearer header on
// every call: no cookie, so another site cannot act with it.  Every URL
// is relative, so the page works under a reverse proxy's path prefix.

const $ = (sel) => document.querySelector(sel);
const TOKEN_KEY = 'nasperf.token';
const HISTORY_SECONDS = 120;
const HZ = 100;			// USER_HZ: the unit of /proc/stat's ticks

let token = sessionStorage.getItem(TOKEN_KEY);
let liveTimer = null;
let slowTimer = null;
let markTimer = null;
let dtTimer = null;
let info = null;

class AuthError extends Error {}

// --- the API -----------------------------------------------------------

async function api(path, opts = {}) {
	const headers = { Authorization: `Bearer ${token}` };
	if (opts.body !== undefined)
		headers['Content-Type'] = 'application/json';
	const r = await fetch(path, {
		method: opts.method ?? 'GET',
		headers,
		body: opts.body !== undefined ? JSON.stringify(opts.body) :
		    undefined,
		cache: 'no-store',
	});
	let doc = null;
	try {
		doc = await r.json();
	} catch {
		doc = null;
	}
	const msg = doc?.error?.message ?? `${r.status} ${r.statusText}`;
	if (r.status === 401) {
		stopAll();
		sessionStorage.removeItem(TOKEN_KEY);
		token = null;
		showLogin(`The daemon refused the token: ${msg}`);
		throw new AuthError(msg);
	}
	if (!r.ok)
		throw new Error(msg);
	return doc;
}

// --- formatting ----------------------------------------------------------

function fmtRate(bps) {
	if (bps == null || !Number.isFinite(bps))
		return '–';
	if (bps >= 1e9)
		return `${(bps / 1e9).toFixed(2)} GB/s`;
	if (bps >= 1e6)
		return `${(bps / 1e6).toFixed(1)} MB/s`;
	if (bps >= 1e3)
		return `${(bps / 1e3).toFixed(0)} kB/s`;
	return `${bps.toFixed(0)} B/s`;
}

function fmtBytes(b) {
	if (b == null)
		return '–';
	if (b >= 1e9)
		return `${(b / 1e9).toFixed(2)} GB`;
	if (b >= 1e6)
		return `${(b / 1e6).toFixed(1)} MB`;
	if (b >= 1e3)
		return `${(b / 1e3).toFixed(0)} kB`;
	return `${b} B`;
}

const fmtPct = (p) => (p == null || !Number.isFinite(p) ? '–' :
    `${p.toFixed(p < 10 ? 1 : 0)} %`);

const fmtTime = (t) => (t == null ? '–' :
    new Date(t * 1000).toLocaleString());

function el(tag, attrs = {}, ...kids) {
	const e = document.createElement(tag);
	for (const [k, v] of Object.entries(attrs)) {
		if (v == null)
			continue;
		if (k === 'class')
			e.className = v;
		else if (k === 'text')
			e.textContent = v;
		else
			e.setAttribute(k, v);
	}
	for (const k of kids)
		e.append(k instanceof Node ? k : document.createTextNode(k));
	return e;
}

// A bar of share (0-100) of something's capacity, with its words.
function bar(pct) {
	const wrap = el('span', { class: 'bar' });
	if (pct == null || !Number.isFinite(pct)) {
		wrap.append(el('span', { class: 'quiet', text: 'not measured' }));
		return wrap;
	}
	const fill = el('span', { class: 'fill' });
	fill.style.width = `${Math.min(100, Math.max(0, pct))}%`;
	if (pct >= 90)
		fill.classList.add('hot');
	wrap.append(el('span', { class: 'track' }, fill),
	    el('span', { class: 'pct', text: fmtPct(pct) }));
	return wrap;
}

function fillRows(table, rows) {
	const tb = table.querySelector('tbody');
	tb.replaceChildren(...rows.map((cells) => {
		const tr = el('tr');
		for (const c of cells) {
			const td = el('td');
			if (c && typeof c === 'object' && !(c instanceof Node)) {
				if (c.num)
					td.className = 'num';
				td.append(c.node ?? c.text ?? '');
			} else {
				td.append(c ?? '');
			}
			tr.append(td);
		}
		return tr;
	}));
}

const num = (text) => ({ num: true, text });

function verdictNode(v) {
	if (v == null)
		return el('span', { class: 'quiet', text: 'no verdict yet' });
	return el('span', {}, el('span', { class: `badge c-${v.class}`,
	    text: v.class }), ' ', v.summary ?? '');
}

// --- login ---------------------------------------------------------------

function showLogin(message) {
	for (const v of document.querySelectorAll('.view'))
		v.hidden = true;
	$('#nav').hidden = true;
	$('#forget').hidden = true;
	$('#login').hidden = false;
	const err = $('#login-error');
	err.hidden = !message;
	err.textContent = message ?? '';
	$('#token').focus();
}

async function connect() {
	info = await api('v1/info');
	const id = info.identity ?? {};
	const os = id.os ? `${id.os}${id.firmware ? ` ${id.firmware}` : ''}` :
	    '';
	$('#box').textContent = [id.hostname, id.model ?? id.vendor, os]
	    .filter(Boolean).join(' · ');
	$('#login').hidden = true;
	$('#nav').hidden = false;
	$('#forget').hidden = false;
	route();
}

$('#login-form').addEventListener('submit', async (ev) => {
	ev.preventDefault();
	token = $('#token').value.trim();
	if (!token)
		return;
	sessionStorage.setItem(TOKEN_KEY, token);
	try {
		await connect();
	} catch (e) {
		if (!(e instanceof AuthError))
			showLogin(`Could not reach the daemon: ${e.message}`);
	}
});

$('#forget').addEventListener('click', () => {
	stopAll();
	sessionStorage.removeItem(TOKEN_KEY);
	token = null;
	showLogin();
});

function setStatus(text, bad) {
	const s = $('#status');
	s.textContent = text;
	s.classList.toggle('bad', !!bad);
}

// --- the live view -------------------------------------------------------

// The history: counters as the daemon sampled them, by device name.
const hist = {
	samples: [],		// {t, mono, gap, sys, cpus:{}, disks:{}, ...}
	last: null,		// the newest sample's t
	meta: null,		// names and fields of the last answer
};

function keyed(names, rows) {
	const o = {};
	names.forEach((n, i) => {
		if (rows && rows[i] != null)
			o[n.name] = rows[i];
	});
	return o;
}

async function pullSamples() {
	const from = hist.last != null ? hist.last + 0.001 : -HISTORY_SECONDS;
	const doc = await api(`v1/samples?from=${from}`);
	hist.meta = doc;
	const f = doc.fields;
	hist.fields = f;
	for (const s of doc.samples ?? []) {
		hist.samples.push({
			t: s.t, mono: s.mono, gap: s.gap,
			cpus: keyed(doc.cpus, s.cpus),
			disks: keyed(doc.disks, s.disks),
			nics: keyed(doc.nics, s.nics),
			groups: keyed(doc.groups, s.groups),
		});
		hist.last = s.t;
	}
	const oldest = (hist.last ?? 0) - HISTORY_SECONDS;
	while (hist.samples.length > 2 && hist.samples[0].t < oldest)
		hist.samples.shift();
}

// Rates between consecutive samples: one point per pair.
function rates() {
	const f = hist.fields;
	const ix = (list, name) => list.indexOf(name);
	const out = [];
	for (let i = 1; i < hist.samples.length; i++) {
		const a = hist.samples[i - 1], b = hist.samples[i];
		const dt = b.mono - a.mono;
		if (b.gap || !(dt > 0))
			continue;
		const p = { t: b.t, dt, cpus: {}, disks: {}, nics: {},
		    groups: {} };
		for (const [n, v] of Object.entries(b.cpus)) {
			const u = a.cpus[n];
			if (!u)
				continue;
			const d = v.map((x, k) => x - u[k]);
			const tot = d.reduce((s, x) => s + x, 0);
			if (!(tot > 0))
				continue;
			const g = (name) => d[ix(f.cpus, name)] / tot * 100;
			p.cpus[n] = {
				user: g('user') + g('nice'),
				system: g('system'),
				softirq: g('softirq') + g('irq'),
				iowait: g('iowait'),
			};
		}
		for (const [n, v] of Object.entries(b.disks)) {
			const u = a.disks[n];
			if (!u)
				continue;
			const d = (name) => v[ix(f.disks, name)] -
			    u[ix(f.disks, name)];
			p.disks[n] = {
				read: d('rd_sectors') * 512 / dt,
				write: d('wr_sectors') * 512 / dt,
				busy: Math.min(100, d('io_ticks') / (dt * 10)),
			};
		}
		for (const [n, v] of Object.entries(b.nics)) {
			const u = a.nics[n];
			if (!u)
				continue;
			const d = (name) => v[ix(f.nics, name)] -
			    u[ix(f.nics, name)];
			p.nics[n] = { rx: d('rx_bytes') / dt,
			    tx: d('tx_bytes') / dt };
		}
		for (const [n, v] of Object.entries(b.groups)) {
			const u = a.groups[n];
			const g = (name) => v[ix(f.groups, name)];
			p.groups[n] = {
				cpu: u ? (g('ticks') - u[ix(f.groups, 'ticks')]) /
				    HZ / dt * 100 : null,
				nprocs: g('nprocs'),
				top_pid: g('top_pid'),
				top_core: g('top_core'),
				throttled: u ? (g('throttled_ns') -
				    u[ix(f.groups, 'throttled_ns')]) / 1e9 / dt :
				    null,
				quota: g('quota_mcores'),
			};
		}
		out.push(p);
	}
	return out;
}

// Charts, kept by id and given new data each second.
const charts = new Map();
const PALETTE = ['#2a6fdb', '#d9480f', '#2b8a3e', '#862e9c', '#e67700',
    '#0b7285', '#c2255c', '#5c940d'];

function chart(id, parent, title, series, yfmt, { height = 160,
    half = false } = {}) {
	let c = charts.get(id);
	const names = series.map((s) => s.label).join('\u0000');
	if (c && c.names === names && c.parent === parent)
		return c.plot;
	if (c) {
		c.plot.destroy();
		c.box.remove();
	}
	const box = el('div', { class: 'chart', 'data-chart': id });
	parent.append(box);
	const full = Math.min(parent.clientWidth || 600, 1160);
	const width = Math.max(240, (half ? full / 2 - 8 : full) - 8);
	const plot = new window.uPlot({
		title,
		width,
		height,
		scales: { x: { time: true }, y: { range: (u, lo, hi) =>
		    [0, Math.max(hi, 1e-9) * 1.1] } },
		axes: [{}, { values: (u, ticks) => ticks.map(yfmt), size: 84 }],
		series: [{}, ...series.map((s, i) => ({
			label: s.label,
			stroke: s.stroke ?? PALETTE[i % PALETTE.length],
			width: s.dash ? 1 : 1.5,
			dash: s.dash,
			value: (u, v) => (v == null ? '–' : yfmt(v)),
		}))],
	}, [[]], box);
	charts.set(id, { plot, names, parent, box });
	return plot;
}

function dropCharts(prefix) {
	for (const [id, c] of charts) {
		if (!id.startsWith(prefix))
			continue;
		c.plot.destroy();
		c.box.remove();
		charts.delete(id);
	}
}

let baseline = {};
let topology = null;
let lastTransfers = { live: [] };
let lastOpenRuns = { runs: [] };
let slowTicks = 0;
const liveVerdicts = new Map();

function drawLive() {
	const pts = rates();
	if (pts.length === 0)
		return;
	const now = pts[pts.length - 1];
	const ts = pts.map((p) => p.t);

	// CPU: one small chart per core.
	const cpuBox = $('#cpu-charts');
	const cores = Object.keys(now.cpus).filter((n) => n !== 'cpu');
	for (const n of cores) {
		const plot = chart(`cpu-${n}`, cpuBox, n, [
			{ label: 'user' }, { label: 'system' },
			{ label: 'softirq' }, { label: 'iowait' }],
		    (v) => `${v.toFixed(0)} %`, { height: 120, half: true });
		const col = (k) => pts.map((p) => p.cpus[n]?.[k] ?? null);
		plot.setData([ts, col('user'), col('system'), col('softirq'),
		    col('iowait')]);
	}

	// Disks: those that moved in the window, and the rest counted.
	const kinds = Object.fromEntries((hist.meta.disks ?? []).map((d) =>
	    [d.name, d.kind]));
	const moved = (n) => pts.some((p) => p.disks[n] &&
	    (p.disks[n].read > 0 || p.disks[n].write > 0));
	const bd = baseline.disks ?? {};
	const disks = Object.keys(now.disks).filter((n) => moved(n) ||
	    (kinds[n] !== 'loop' && kinds[n] !== 'ram' && bd[n]));
	const idle = Object.keys(now.disks).length - disks.length;
	$('#disks-idle').textContent = idle > 0 ?
	    `${idle} more devices had no I/O in the last two minutes.` : '';
	fillRows($('#disks'), disks.map((n) => {
		const r = now.disks[n];
		const meas = bd[n]?.seq_read_bytes_per_s?.outer;
		return [n, kinds[n] ?? '', num(fmtRate(r.read)),
		    num(fmtRate(r.write)), num(fmtPct(r.busy)),
		    num(fmtRate(meas)), bar(meas ? r.read / meas * 100 :
		    null)];
	}));
	const dplot = chart('disks', $('#disk-chart'), 'Disks: read and ' +
	    'write', disks.flatMap((n) => [{ label: `${n} read` },
	    { label: `${n} write`, dash: [4, 3] }]), fmtRate);
	dplot.setData([ts, ...disks.flatMap((n) => [
	    pts.map((p) => p.disks[n]?.read ?? null),
	    pts.map((p) => p.disks[n]?.write ?? null)])]);

	// Volumes: the configured and measured ones, by their device.
	const bv = baseline.volumes ?? {};
	const fss = (topology?.filesystems ?? []).filter((f) =>
	    bv[f.mountpoint]);
	fillRows($('#volumes'), fss.map((f) => {
		const r = now.disks[f.device];
		const m = bv[f.mountpoint];
		const mr = m.seq_read_bytes_per_s, mw = m.seq_write_bytes_per_s;
		const share = r && (mr || mw) ? Math.max(mr ? r.read / mr : 0,
		    mw ? r.write / mw : 0) * 100 : null;
		return [f.mountpoint, f.fstype, f.device ?? '–',
		    num(fmtRate(r?.read)), num(fmtRate(r?.write)),
		    num(fmtRate(mr)), num(fmtRate(mw)), bar(share)];
	}));
	$('#volumes').hidden = fss.length === 0;
	$('#volumes-none').hidden = fss.length > 0;

	// Interfaces against their link speed.
	const nicMeta = Object.fromEntries((hist.meta.nics ?? []).map((n) =>
	    [n.name, n]));
	const nics = Object.keys(now.nics).filter((n) => !nicMeta[n]?.virtual ||
	    n === 'lo' || pts.some((p) => p.nics[n]?.rx > 1e5 ||
	    p.nics[n]?.tx > 1e5));
	fillRows($('#nics'), nics.map((n) => {
		const r = now.nics[n];
		const sp = nicMeta[n]?.speed_mbps;
		const cap = sp > 0 ? sp * 1e6 / 8 : null;
		return [n, num(fmtRate(r.rx)), num(fmtRate(r.tx)),
		    num(cap ? `${sp} Mbit/s` : 'unknown'),
		    bar(cap ? Math.max(r.rx, r.tx) / cap * 100 : null)];
	}));
	const nplot = chart('nics', $('#nic-chart'), 'Interfaces: received ' +
	    'and sent', nics.flatMap((n) => [{ label: `${n} rx` },
	    { label: `${n} tx`, dash: [4, 3] }]), fmtRate);
	nplot.setData([ts, ...nics.flatMap((n) => [
	    pts.map((p) => p.nics[n]?.rx ?? null),
	    pts.map((p) => p.nics[n]?.tx ?? null)])]);

	// The serving processes: the groups that have any.
	const gmeta = Object.fromEntries((hist.meta.groups ?? []).map((g) =>
	    [g.name, g]));
	const groups = Object.keys(now.groups).filter((n) =>
	    now.groups[n].nprocs > 0);
	fillRows($('#groups'), groups.map((n) => {
		const g = now.groups[n];
		const thr = g.throttled > 0 ?
		    `${(g.throttled * 1000).toFixed(0)} ms/s` +
		    (g.quota > 0 ? ` (quota ${(g.quota / 1000).toFixed(2)} ` +
		    'cores)' : '') : 'no';
		const top = gmeta[n]?.top_comm ? `${gmeta[n].top_comm}` +
		    (g.top_pid > 0 ? ` (${g.top_pid})` : '') : '–';
		return [n, num(String(g.nprocs)), num(fmtPct(g.cpu)), top,
		    num(g.top_core >= 0 ? String(g.top_core) : '–'), thr];
	}));
}

// The SMB sessions smbstatus listed last: signing and encryption are what
// most often make smbd CPU-bound.
function drawSessions() {
	// protocols.smb.sessions: smbstatus's answer, its list in sessions.
	const smb = topology?.protocols?.smb;
	const st = smb?.sessions;
	const ss = st?.sessions ?? [];
	const deg = (x) => (x ? [x.degree, x.cipher].filter(Boolean)
	    .join(' ') : '–');
	$('#smb-sessions').hidden = ss.length === 0;
	$('#smb-sessions-none').textContent = ss.length ? '' : smb == null ?
	    'No Samba here.' : st?.available === false ? 'smbstatus could ' +
	    `not be read${st.error ? `: ${st.error}` : ''}.` :
	    'No SMB session is open.';
	fillRows($('#smb-sessions'), ss.map((x) => [x.address ?? '–',
	    x.machine ?? '–', x.user ?? '–', num(String(x.pid ?? '–')),
	    x.dialect ?? '–', deg(x.signing), deg(x.encryption)]));
}

function drawTransfers() {
	const live = lastTransfers.live ?? [];
	const seen = new Set(live.map((x) => x.run));
	const runs = (lastOpenRuns.runs ?? []).filter((r) => !seen.has(r.id));
	const link = (id) => (id != null ? el('a', { href: `#run/${id}` },
	    verdictNode(liveVerdicts.get(id))) : verdictNode(null));
	const rows = [
	    ...live.map((x) => [`transfer (${x.state})`, x.client, x.service,
	    num(fmtRate(x.bytes_per_s)), num(fmtBytes(x.sent_bytes)),
	    num(fmtBytes(x.received_bytes)), num(x.seconds.toFixed(0)),
	    link(x.run)]),
	    ...runs.map((r) => [`run ${r.id}${r.label ? `: ${r.label}` : ''}`,
	    r.client ?? r.client_addr ?? '', r.protocol ?? '', num('–'),
	    num('–'), num('–'), num(((Date.now() / 1000) - r.start)
	    .toFixed(0)), link(r.id)]),
	];
	$('#live-transfers-none').hidden = rows.length > 0;
	$('#live-transfers').hidden = rows.length === 0;
	fillRows($('#live-transfers'), rows);
}

async function tickLive() {
	try {
		await pullSamples();
		drawLive();
		setStatus(`live · ${new Date().toLocaleTimeString()}`);
	} catch (e) {
		if (!(e instanceof AuthError))
			setStatus(`lost the daemon: ${e.message}`, true);
	}
}

// Every few seconds: the copies under way, their verdicts, the box's.
async function tickSlow() {
	try {
		[lastTransfers, lastOpenRuns] = await Promise.all([
		    api('v1/transfers'), api('v1/runs?open=1')]);
		const ids = new Set([...(lastTransfers.live ?? []).map((x) =>
		    x.run), ...(lastOpenRuns.runs ?? []).map((r) => r.id)]);
		ids.delete(null);
		ids.delete(undefined);
		for (const id of ids) {
			const doc = await api(`v1/runs/${id}/report`);
			liveVerdicts.set(id, doc.verdict ?? null);
		}
		drawTransfers();
		const now = await api('v1/verdict');
		$('#now-verdict').replaceChildren(verdictNode(now.verdict));
		// The sessions change slowly: the topology every ten seconds.
		if (++slowTicks % 3 === 0)
			topology = await api('v1/topology');
		drawSessions();
	} catch (e) {
		if (!(e instanceof AuthError))
			setStatus(`lost the daemon: ${e.message}`, true);
	}
}

async function startLive() {
	try {
		[baseline, topology] = await Promise.all([api('v1/baseline'),
		    api('v1/topology')]);
	} catch (e) {
		if (e instanceof AuthError)
			return;
	}
	await tickLive();
	await tickSlow();
	liveTimer = setInterval(tickLive, 1000);
	slowTimer = setInterval(tickSlow, 3000);
}

function stopAll() {
	clearInterval(liveTimer);
	clearInterval(slowTimer);
	clearInterval(markTimer);
	clearInterval(dtTimer);
	liveTimer = slowTimer = markTimer = dtTimer = null;
}

// --- runs and transfers --------------------------------------------------

async function showRuns() {
	const [runs, xfers] = await Promise.all([api('v1/runs'),
	    api('v1/transfers')]);
	const rows = [
	    ...(runs.runs ?? []).map((r) => ({ kind: 'run', ...r })),
	    ...(xfers.transfers ?? []).map((x) => ({ kind: 'transfer', ...x })),
	].sort((a, b) => (b.start ?? 0) - (a.start ?? 0));
	$('#runs-none').hidden = rows.length > 0;
	fillRows($('#runs'), rows.map((r) => {
		const box = el('input', { type: 'checkbox', 'data-kind': r.kind,
		    'data-id': String(r.id), 'aria-label': `compare ${r.kind} ` +
		    `${r.id}` });
		box.addEventListener('change', () => {
			$('#compare').disabled = document.querySelectorAll(
			    '#runs input:checked').length < 2;
		});
		const href = r.kind === 'run' ? `#run/${r.id}` :
		    `#transfer/${r.id}`;
		return [box, r.kind, el('a', { href, text: String(r.id) }),
		    fmtTime(r.start), r.label ?? '', r.client ?? r.client_addr ??
		    '', r.protocol ?? '', r.op ?? '',
		    num(fmtRate(r.client_rate ?? r.bytes_per_s)),
		    r.ended === false ? el('span', { class: 'quiet',
		    text: 'open' }) : verdictNode(r.verdict)];
	}));
	$('#compare').disabled = true;
	$('#compare-out').replaceChildren();
}

const reportPath = (kind, id) => (kind === 'transfer' ?
    `v1/transfers/${id}/report` : `v1/runs/${id}/report`);

$('#compare').addEventListener('click', async () => {
	const picked = [...document.querySelectorAll('#runs input:checked')];
	const reps = await Promise.all(picked.map((b) =>
	    api(reportPath(b.dataset.kind, b.dataset.id))));
	const rowsOf = [
		['Label', (r) => r.run?.label ?? ''],
		['Protocol', (r) => r.run?.protocol ?? ''],
		['Operation', (r) => r.run?.op ?? ''],
		['Client', (r) => r.run?.client ?? r.run?.client_addr ?? ''],
		['Rate', (r) => fmtRate(r.client_rate)],
		['Bytes', (r) => fmtBytes(r.run?.bytes)],
		['Seconds', (r) => r.window?.seconds?.toFixed(1) ?? '–'],
		['Verdict', (r) => r.verdict?.class ?? '–'],
		['Resource', (r) => r.verdict?.resource ?? '–'],
		['Why', (r) => r.verdict?.summary ?? ''],
	];
	const t = el('table', { class: 'grid compare' });
	t.append(el('thead', {}, el('tr', {}, el('th'), ...picked.map((b) =>
	    el('th', { text: `${b.dataset.kind} ${b.dataset.id}` })))));
	const tb = el('tbody');
	for (const [name, get] of rowsOf)
		tb.append(el('tr', {}, el('th', { text: name }),
		    ...reps.map((r) => el('td', { text: get(r) }))));
	t.append(tb);
	$('#compare-out').replaceChildren(el('h3', { text: 'Side by side' }),
	    t);
});

async function showRun(kind, id) {
	dropCharts('run-');
	const noun = kind === 'transfer' ? 'Transfer' : 'Run';
	// What the view held is another run's: gone while this one loads.
	$('#run-title').textContent = `${noun} ${id}`;
	$('#run-meta').textContent = 'loading…';
	for (const s of ['#run-verdict', '#run-hints', '#run-next',
	    '#run-observations', '#run-path'])
		$(s).replaceChildren();
	fillRows($('#run-evidence'), []);
	const r = await api(reportPath(kind, id));
	const run = r.run ?? {};
	$('#run-title').textContent = `${noun} ${run.id}${run.label ?
	    `: ${run.label}` : ''}`;
	$('#run-meta').textContent = [run.protocol, run.op,
	    run.client ?? run.client_addr, fmtTime(run.start),
	    r.window?.seconds != null ? `${r.window.seconds.toFixed(1)} s` :
	    null, run.bytes != null ? fmtBytes(run.bytes) : null,
	    r.client_rate != null ? fmtRate(r.client_rate) : null,
	    run.state].filter(Boolean).join(' · ');
	$('#run-verdict').replaceChildren(verdictNode(r.verdict),
	    r.verdict?.confidence ? el('span', { class: 'quiet',
	    text: ` (confidence ${r.verdict.confidence})` }) : '');
	const hints = r.hints ?? [];
	$('#run-hints').replaceChildren(...(hints.length ? [
	    el('h3', { text: 'Likely causes and what to try' }),
	    el('ul', {}, ...hints.map((h) => el('li', {}, h.text ??
	    h.summary ?? JSON.stringify(h))))] : []));
	const next = r.next ?? [];
	$('#run-next').replaceChildren(...(next.length ? [
	    el('h3', { text: 'What to try next' }),
	    el('ul', {}, ...next.map((t) => el('li', { text: t })))] : []));
	const obs = r.observations ?? [];
	$('#run-observations').replaceChildren(...(obs.length ? [
	    el('h3', { text: 'Also seen' }), el('ul', {}, ...obs.map((o) =>
	    el('li', { text: o.text })))] : []));
	fillRows($('#run-evidence'), (r.evidence ?? []).map((e) => [e.class,
	    e.resource ?? '', e.metric ?? '', num(e.value != null ?
	    `${Number(e.value).toPrecision(3)} ${e.unit ?? ''}` : '–'),
	    num(fmtPct(e.utilisation_pct)), e.detail ?? '']));
	const p = r.path;
	const procs = p?.processes ?? [];
	const pt = el('table', { class: 'grid' }, el('thead', {}, el('tr', {},
	    ...['Serving process', 'pid', 'CPU', 'Last on core'].map((h, i) =>
	    el('th', { class: i > 0 ? 'num' : null, text: h })))),
	    el('tbody'));
	fillRows(pt, procs.map((x) => [x.comm ?? '?', num(String(x.pid ?? '–')),
	    num(fmtPct(x.cpu_pct)), num(x.core != null ? String(x.core) :
	    '–')]));
	$('#run-path').replaceChildren(...(p ? [el('h3', { text: 'The path' }),
	    el('p', { text: p.summary ?? '' }), ...(procs.length ? [pt] :
	    [])] : []));
	drawRunCharts(r);
}

function drawRunCharts(r) {
	const s = r.series;
	const box = $('#run-charts');
	if (!s || !s.t?.length) {
		box.replaceChildren(el('p', { class: 'quiet',
		    text: 'No samples in the window.' }));
		return;
	}
	box.replaceChildren();
	const t0 = r.window?.start ?? 0;
	const ts = s.t.map((x) => t0 + x);
	const sets = [];
	if (s.client_bytes_per_s)
		sets.push(['run-client', 'The client\'s rate' +
		    (r.run?.client_seconds == null ? ' (its average: the ' +
		    'client gave no progress)' : ''),
		    [{ label: 'client' }], [s.client_bytes_per_s], fmtRate]);
	const nics = s.nics ?? [];
	if (nics.length)
		sets.push(['run-nics', 'Interfaces', nics.flatMap((n) => [
		    { label: `${n.name} rx` }, { label: `${n.name} tx`,
		    dash: [4, 3] }, ...(n.capacity_bytes_per_s ? [{
		    label: `${n.name} capacity`, stroke: '#999',
		    dash: [2, 4] }] : [])]), nics.flatMap((n) => [
		    n.rx_bytes_per_s, n.tx_bytes_per_s,
		    ...(n.capacity_bytes_per_s ? [ts.map(() =>
		    n.capacity_bytes_per_s)] : [])]), fmtRate]);
	const disks = s.disks ?? [];
	if (disks.length)
		sets.push(['run-disks', 'Disks', disks.flatMap((d) => [
		    { label: `${d.name} read` }, { label: `${d.name} write`,
		    dash: [4, 3] }]), disks.flatMap((d) => [d.read_bytes_per_s,
		    d.write_bytes_per_s]), fmtRate]);
	const cpus = s.cpus ?? [];
	if (cpus.length)
		sets.push(['run-cpus', 'CPU busy', cpus.map((c) =>
		    ({ label: c.name })), cpus.map((c) => c.busy_pct),
		    (v) => `${v.toFixed(0)} %`]);
	const groups = s.groups ?? [];
	if (groups.length)
		sets.push(['run-groups', 'Serving processes\' CPU',
		    groups.map((g) => ({ label: g.name })),
		    groups.map((g) => g.cpu_pct), (v) => `${v.toFixed(0)} %`]);
	for (const [id, title, series, cols, fmt] of sets)
		chart(id, box, title, series, fmt).setData([ts, ...cols]);
}

// --- tests from the browser ------------------------------------------------

let markRun = null;

$('#mark-form').addEventListener('submit', async (ev) => {
	ev.preventDefault();
	$('#mark-error').hidden = true;
	$('#mark-result').replaceChildren();
	try {
		const body = { op: $('#mark-op').value,
		    protocol: $('#mark-protocol').value };
		if ($('#mark-label').value.trim())
			body.label = $('#mark-label').value.trim();
		const doc = await api('v1/runs', { method: 'POST', body });
		markRun = { id: doc.id, start: Date.now() };
		$('#mark-id').textContent = String(doc.id);
		$('#mark-form').hidden = true;
		$('#mark-end-form').hidden = false;
		markTimer = setInterval(() => {
			$('#mark-elapsed').textContent = ((Date.now() -
			    markRun.start) / 1000).toFixed(0);
		}, 500);
	} catch (e) {
		if (!(e instanceof AuthError))
			showError('#mark-error', e);
	}
});

$('#mark-end-form').addEventListener('submit', async (ev) => {
	ev.preventDefault();
	$('#mark-error').hidden = true;
	const body = {};
	const n = $('#mark-bytes').value.trim();
	if (n) {
		const v = Number(n.replace(',', '.'));
		if (!(v >= 0)) {
			showError('#mark-error', new Error(`"${n}" is not a ` +
			    'number of bytes'));
			return;
		}
		body.bytes = Math.round(v * Number($('#mark-unit').value));
	}
	try {
		const r = await api(`v1/runs/${markRun.id}/end`,
		    { method: 'POST', body });
		clearInterval(markTimer);
		$('#mark-result').replaceChildren(el('a',
		    { href: `#run/${markRun.id}`, text: `Run ${markRun.id}` }),
		    ': ', verdictNode(r.verdict));
		$('#mark-end-form').hidden = true;
		$('#mark-form').hidden = false;
		markRun = null;
	} catch (e) {
		if (!(e instanceof AuthError))
			showError('#mark-error', e);
	}
});

// The network test: the browser itself against the synthetic data plane,
// each direction a run the daemon judges.
const netRows = [];
let netRate = 0;		// the last download's, to size an upload

function synthUrl(query) {
	const port = info?.synth?.port;
	if (!port)
		throw new Error('the daemon\'s synthetic data plane is not ' +
		    'listening (synth.listen in nasperfd.yaml)');
	// A page that came over TLS may not fetch a plain port.
	if (location.protocol === 'https:' && !info.synth.tls)
		throw new Error('this page came over TLS (api.tls) and the ' +
		    'browser will not reach a plain data plane from it: turn ' +
		    'synth.tls on in nasperfd.yaml');
	const scheme = info.synth.tls ? 'https:' : 'http:';
	return `${scheme}//${location.hostname}:${port}/v1/synth` +
	    (query ? `?${query}` : '');
}

// fetch() of the data plane, a failure said in a user's words.
async function synthFetch(query, opts = {}) {
	const url = synthUrl(query);
	let r;
	try {
		r = await fetch(url, { ...opts, cache: 'no-store',
		    headers: { Authorization: `Bearer ${token}` } });
	} catch (e) {
		throw new Error(`could not reach the data plane at ${url} (a ` +
		    'firewall, or a reverse proxy that forwards only the API ' +
		    `port): ${e.message}`);
	}
	if (!r.ok) {
		const doc = await r.json().catch(() => null);
		throw new Error(doc?.error?.message ?? `${r.status} ` +
		    r.statusText);
	}
	return r;
}

async function netRun(op, label, move) {
	const run = await api('v1/runs', { method: 'POST', body: { label,
	    protocol: 'http', op } });
	const t0 = performance.now();
	let bytes = 0;
	try {
		bytes = await move((n) => {
			const s = (performance.now() - t0) / 1000;
			$('#net-live').textContent = `${label}: ${fmtBytes(n)} in ` +
			    `${s.toFixed(1)} s, ${fmtRate(n / s)}`;
		});
	} catch (e) {
		await api(`v1/runs/${run.id}/end`, { method: 'POST', body: {} })
		    .catch(() => {});
		throw e;
	}
	const secs = (performance.now() - t0) / 1000;
	const rep = await api(`v1/runs/${run.id}/end`, { method: 'POST',
	    body: { bytes, client_seconds: secs } });
	netRows.unshift([label, num(fmtBytes(bytes)), num(secs.toFixed(2)),
	    num(fmtRate(bytes / secs)), el('a', { href: `#run/${run.id}` },
	    verdictNode(rep.verdict))]);
	fillRows($('#net-results'), netRows);
	$('#net-results').hidden = false;
	$('#net-live').textContent = '';
	return bytes / secs;
}

function netDownload(secs) {
	return netRun('read', 'browser download', async (progress) => {
		const r = await synthFetch(`seconds=${secs}`);
		const reader = r.body.getReader();
		let n = 0, shown = 0;
		for (;;) {
			const { done, value } = await reader.read();
			if (done)
				break;
			n += value.length;
			if (performance.now() - shown > 250) {
				progress(n);
				shown = performance.now();
			}
		}
		return n;
	});
}

// An upload of about secs at the last download's rate (16 MiB to 1 GiB,
// 256 MiB over TLS: Chromium failed a 512 MiB body to an https port with
// ERR_BLOB_OUT_OF_MEMORY where it sent 1 GiB over http), one MiB of random
// bytes repeated.
function netUpload(secs) {
	const max = info?.synth?.tls ? 256 : 1024;
	const mib = Math.max(16, Math.min(max, Math.round(netRate * secs /
	    1048576) || 64));
	const chunk = new Uint8Array(1048576);
	for (let i = 0; i < chunk.length; i += 65536)
		crypto.getRandomValues(chunk.subarray(i, i + 65536));
	const body = new Blob(new Array(mib).fill(chunk));
	return netRun('write', 'browser upload', async (progress) => {
		progress(0);
		const r = await synthFetch('', { method: 'PUT', body });
		const doc = await r.json();
		return doc.bytes;
	});
}

async function netTest(up) {
	$('#net-error').hidden = true;
	const secs = Number($('#net-seconds').value);
	if (!(secs > 0 && secs <= 60)) {
		showError('#net-error', new Error('seconds: from 0.1 to 60'));
		return;
	}
	$('#net-down').disabled = $('#net-up').disabled = true;
	try {
		if (up)
			await netUpload(secs);
		else
			netRate = await netDownload(secs);
	} catch (e) {
		if (!(e instanceof AuthError))
			showError('#net-error', e);
	} finally {
		$('#net-down').disabled = $('#net-up').disabled = false;
	}
}

$('#net-form').addEventListener('submit', (ev) => {
	ev.preventDefault();
	netTest(false);
});
$('#net-up').addEventListener('click', () => netTest(true));

// The disk analyzer: choose, start, follow, read the result.
// A read-only token: the tests' controls off, and why.
function applyScope() {
	const ro = info?.scope === 'read';
	for (const b of document.querySelectorAll('#view-tests form button, ' +
	    '#view-tests form input, #view-tests form select'))
		b.disabled = ro;
	$('#scope-note').hidden = !ro;
	$('#scope-note').textContent = ro ? 'This token only reads: the ' +
	    'live view and the lists work with it, the tests need the ' +
	    `control token (${info.token_files?.control ?? 'token'} on the ` +
	    'NAS).' : '';
}

async function showTests() {
	const box = $('#dt-targets');
	if (box.dataset.filled) {
		applyScope();
		return;
	}
	const topo = topology ?? await api('v1/topology');
	const vols = info?.disktest?.volumes ?? [];
	const disks = (topo.disks ?? []).filter((d) => d.size_bytes > 0);
	const item = (name, what) => el('label', { class: 'inline' },
	    el('input', { type: 'checkbox', value: name,
	    'aria-label': name }), ` ${name} `, el('span', { class: 'quiet',
	    text: what }));
	box.append(...vols.map((v) => item(v, 'volume')),
	    ...disks.map((d) => item(d.name, [d.model, d.transport,
	    fmtBytes(d.size_bytes)].filter(Boolean).join(', '))));
	if (vols.length === 0)
		box.append(el('p', { class: 'quiet', text: 'No volume is ' +
		    'configured for writing (disktest.volumes in ' +
		    'nasperfd.yaml): disks only.' }));
	box.dataset.filled = '1';
	applyScope();
}

$('#dt-form').addEventListener('submit', async (ev) => {
	ev.preventDefault();
	$('#dt-error').hidden = true;
	$('#dt-result').replaceChildren();
	const body = { kind: $('#dt-kind').value };
	const targets = [...document.querySelectorAll(
	    '#dt-targets input:checked')].map((b) => b.value);
	if (targets.length)
		body.targets = targets;
	const secs = $('#dt-seconds').value.trim();
	if (secs) {
		const v = Number(secs);
		if (!(v > 0)) {
			showError('#dt-error', new Error(`"${secs}" is not a ` +
			    'number of seconds'));
			return;
		}
		body.seconds = v;
	}
	const size = $('#dt-size').value.trim();
	if (size) {
		const v = Number(size);
		if (!(v >= 1 && Number.isInteger(v))) {
			showError('#dt-error', new Error(`"${size}" is not a ` +
			    'whole number of MiB'));
			return;
		}
		body.size = v * 1048576;
	}
	try {
		const doc = await api('v1/disktests', { method: 'POST', body });
		followDisktest(doc.id);
	} catch (e) {
		if (!(e instanceof AuthError))
			showError('#dt-error', e);
	}
});

function followDisktest(id) {
	$('#dt-start').disabled = true;
	$('#dt-progress').hidden = false;
	$('#dt-progress').dataset.id = String(id);
	const tick = async () => {
		let doc;
		try {
			doc = await api(`v1/disktests/${id}`);
		} catch (e) {
			clearInterval(dtTimer);
			if (!(e instanceof AuthError))
				showError('#dt-error', e);
			return;
		}
		const p = doc.progress ?? {};
		$('#dt-state').textContent = `Test ${id}: ${doc.state}`;
		$('#dt-bar').value = p.fraction ?? 0;
		$('#dt-step').textContent = p.steps ? `step ${p.step} of ` +
		    `${p.steps}: ${p.label ?? ''} ${p.bytes_per_s ?
		    fmtRate(p.bytes_per_s) : ''}` : '';
		if (doc.state === 'running' || doc.state === 'checking')
			return;
		clearInterval(dtTimer);
		dtTimer = null;
		$('#dt-progress').hidden = true;
		$('#dt-start').disabled = false;
		showDisktest(doc);
		baseline = await api('v1/baseline').catch(() => baseline);
	};
	clearInterval(dtTimer);
	dtTimer = setInterval(tick, 500);
	tick();
}

$('#dt-cancel').addEventListener('click', async () => {
	const id = $('#dt-progress').dataset.id;
	try {
		await api(`v1/disktests/${id}`, { method: 'DELETE' });
	} catch (e) {
		if (!(e instanceof AuthError))
			showError('#dt-error', e);
	}
});

const fmtIops = (x) => (x?.iops != null ? x.iops.toFixed(0) : '–');

function showDisktest(doc) {
	const out = [el('h3', { text: `Test ${doc.id}: ${doc.state}` })];
	if (doc.error)
		out.push(el('p', { class: 'error', text: doc.error }));
	for (const f of doc.forced ?? [])
		out.push(el('p', { class: 'quiet', text: `forced: ${f}` }));
	const disks = doc.disks ?? [];
	if (disks.length) {
		const t = el('table', { class: 'grid', id: 'dt-disks' },
		    el('thead', {}, el('tr', {}, ...['Disk', 'Model', 'Outer',
		    'Middle', 'Inner', 'All at once', 'IOPS QD1', 'IOPS QD32',
		    'Latency QD1 p50', ''].map((h, i) => el('th', { class: i > 1 &&
		    i < 9 ? 'num' : null, text: h })))), el('tbody'));
		out.push(t);
		fillRows(t, disks.map((k) => [k.name, k.model ?? '–',
		    num(fmtRate(k.zones?.outer?.bytes_per_s)),
		    num(fmtRate(k.zones?.middle?.bytes_per_s)),
		    num(fmtRate(k.zones?.inner?.bytes_per_s)),
		    num(fmtRate(k.concurrent?.bytes_per_s)),
		    num(fmtIops(k.rand_qd1)), num(fmtIops(k.rand_qd32)),
		    num(k.rand_qd1?.lat_us?.p50 != null ?
		    `${k.rand_qd1.lat_us.p50.toFixed(0)} µs` : '–'),
		    [k.slow ? 'SLOW: more than 8 % below its array\'s mean' :
		    '', ...(k.implausible ?? []).map((w) =>
		    `implausible: ${w}`)].filter(Boolean).join('; ')]));
	}
	const c = doc.concurrent;
	if (c && typeof c === 'object')
		out.push(el('p', { text: `All at once ${fmtRate(
		    c.sum_concurrent_bytes_per_s)}, one at a time ${fmtRate(
		    c.sum_individual_bytes_per_s)} ` +
		    `(${fmtPct(100 * c.ratio)})` }));
	for (const v of doc.volumes ?? []) {
		const ex = v.expected ?? {};
		const eff = ex.efficiency ?? {};
		const n = (v.members ?? []).length;
		out.push(el('h3', { text: `Volume ${v.path}: ${v.fstype}, ` +
		    `${v.layout} on ${v.device}, ${n} disk${n === 1 ? '' :
		    's'}` }));
		const t = el('table', { class: 'grid dt-volume' },
		    el('thead', {}, el('tr', {}, el('th'), ...['Write', 'Read',
		    'Random read IOPS', 'Random write IOPS'].map((h) =>
		    el('th', { class: 'num', text: h })))), el('tbody'));
		fillRows(t, [
		    ['measured', num(fmtRate(v.write?.bytes_per_s)),
		    num(fmtRate(v.read?.bytes_per_s)), num(fmtIops(v.rand_read)),
		    num(fmtIops(v.rand_write))],
		    ['expected', num(fmtRate(ex.write_bytes_per_s)),
		    num(fmtRate(ex.read_bytes_per_s)), num(''), num('')],
		    ['efficiency', num(eff.write != null ? fmtPct(100 *
		    eff.write) : '–'), num(eff.read != null ? fmtPct(100 *
		    eff.read) : '–'), num(''), num('')],
		]);
		out.push(t);
		const notes = [v.cache ? `cache: ${v.cache}` : null, ex.basis ?
		    `expected from the ${ex.basis}` : null,
		    ...(v.slow_members ?? []).map((m) => `slow member: ${m}`)]
		    .filter(Boolean);
		if (notes.length)
			out.push(el('ul', {}, ...notes.map((x) => el('li',
			    { text: x }))));
	}
	$('#dt-result').replaceChildren(...out);
}

function showError(sel, e) {
	const p = $(sel);
	p.textContent = e.message;
	p.hidden = false;
}

// --- routing -------------------------------------------------------------

async function route() {
	if (!token) {
		showLogin();
		return;
	}
	const [view, id] = (location.hash.replace(/^#/, '') || 'live')
	    .split('/');
	for (const v of document.querySelectorAll('.view'))
		v.hidden = true;
	for (const a of document.querySelectorAll('#nav a'))
		a.classList.toggle('here', a.dataset.view === view ||
		    (a.dataset.view === 'runs' && (view === 'run' ||
		    view === 'transfer')));
	if (view !== 'live') {
		setStatus('');
		clearInterval(liveTimer);
		clearInterval(slowTimer);
		liveTimer = slowTimer = null;
	}
	try {
		if (view === 'runs') {
			$('#view-runs').hidden = false;
			await showRuns();
		} else if (view === 'run' || view === 'transfer') {
			$('#view-run').hidden = false;
			await showRun(view, id);
		} else if (view === 'tests') {
			$('#view-tests').hidden = false;
			await showTests();
		} else {
			$('#view-live').hidden = false;
			if (liveTimer == null)
				await startLive();
		}
	} catch (e) {
		if (!(e instanceof AuthError))
			setStatus(e.message, true);
	}
}

window.addEventListener('hashchange', route);

if (token) {
	connect().catch((e) => {
		if (!(e instanceof AuthError))
			showLogin(`Could not reach the daemon: ${e.message}`);
	});
} else {
	showLogin();
}
