/*
 * cmd_install.c: nasperf install and nasperf uninstall: put nasperfd on a
 * NAS over SSH, start it the way that box starts its services, and take
 * it away again.  The commands: their options, the plan printed, the
 * files written on the NAS and the result; install_ssh.c runs ssh and
 * install_detect.c finds out what the box is.
 *
 * Install records in PREFIX/.nasperf-install how the daemon was started
 * and every file and directory it created; uninstall follows that record,
 * so it removes no more and no less, and a second uninstall finds nothing.
 */
#include "config.h"

#include <sys/stat.h>
#include <sys/types.h>

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "install.h"
#include "install_sh.h"
#include "report_yaml.h"


/*
 * A path the scripts and the files they write can carry without quoting:
 * absolute, not "/", letters, digits and . _ + - / only, no "." or ".."
 * component.  0, or -1 with the reason in *why.
 */
static int
install_path_ok(const char *p, const char **why)
{
	const char	*s;

	if (p[0] != '/' || p[1] == '\0') {
		*why = "expected an absolute path other than /";
		return (-1);
	}
	if (strlen(p) >= INSTALL_PATH_MAX - 32) {
		*why = "too long";
		return (-1);
	}
	for (s = p; *s != '\0'; s++) {
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		    (*s >= '0' && *s <= '9') || strchr("._+-/", *s) != NULL)) {
			*why = "only letters, digits and . _ + - / are allowed";
			return (-1);
		}
		if (s[0] == '/' && (s[1] == '/' || (s[1] == '.' && (s[2] ==
		    '/' || s[2] == '\0' || (s[2] == '.' && (s[3] == '/' ||
		    s[3] == '\0')))))) {
			*why = "no empty, . or .. component";
			return (-1);
		}
	}
	if (s[-1] == '/') {
		*why = "no trailing /";
		return (-1);
	}
	return (0);
}

/*
 * Parse --listen ADDR:PORT or [V6]:PORT into the config's form and the
 * port; -1 when malformed.
 */
static int
install_parse_listen(struct install *in, const char *s)
{
	const char	*colon, *a;
	char		*end;
	unsigned long	 port;
	size_t		 alen;

	if ((colon = strrchr(s, ':')) == NULL || colon == s)
		return (-1);
	if (s[0] == '[') {
		if (colon[-1] != ']' || colon - s < 3)
			return (-1);
		a = s + 1;
		alen = (size_t)(colon - s - 2);
	} else {
		if (memchr(s, ':', (size_t)(colon - s)) != NULL)
			return (-1);
		a = s;
		alen = (size_t)(colon - s);
	}
	for (size_t i = 0; i < alen; i++)
		if (strchr("0123456789abcdefABCDEF.:", a[i]) == NULL)
			return (-1);
	errno = 0;
	port = strtoul(colon + 1, &end, 10);
	if (colon[1] < '0' || colon[1] > '9' || *end != '\0' || errno != 0 ||
	    port == 0 || port > 65535 || strlen(s) >= sizeof in->listen_addr)
		return (-1);
	snprintf(in->listen_addr, sizeof in->listen_addr, "%s", s);
	in->port = (unsigned)port;
	in->wildcard = (alen == 7 && memcmp(a, "0.0.0.0", 7) == 0) ||
	    (alen == 2 && memcmp(a, "::", 2) == 0);
	return (0);
}

/* The files install writes, in the order it writes them. */
struct install_files {
	char	 bin[INSTALL_PATH_MAX + 32], conf[INSTALL_PATH_MAX + 32];
	char	 service[INSTALL_PATH_MAX + 32], unit[64], rcd[64];
	char	 pidf[INSTALL_PATH_MAX + 32], log[INSTALL_PATH_MAX + 32];
	char	 manifest[INSTALL_PATH_MAX + 32];
};

/* Fill the paths of what install writes. */
static void
install_files(const struct install *in, struct install_files *f)
{
	memset(f, 0, sizeof *f);
	snprintf(f->bin, sizeof f->bin, "%s/bin/nasperfd", in->prefix);
	snprintf(f->conf, sizeof f->conf, "%s/etc/nasperfd.yaml", in->prefix);
	snprintf(f->manifest, sizeof f->manifest, "%s/" INSTALL_MANIFEST,
	    in->prefix);
	if (strcmp(in->init_name, "systemd") == 0) {
		snprintf(f->unit, sizeof f->unit,
		    "/etc/systemd/system/nasperfd.service");
		return;
	}
	snprintf(f->service, sizeof f->service, "%s/nasperfd.sh", in->prefix);
	snprintf(f->pidf, sizeof f->pidf, "%s/nasperfd.pid", in->state);
	snprintf(f->log, sizeof f->log, "%s/nasperfd.log", in->state);
	if (strcmp(in->init_name, "synology-rc.d") == 0)
		snprintf(f->rcd, sizeof f->rcd,
		    "/usr/local/etc/rc.d/nasperfd.sh");
}

/* The detected box, in one line. */
static void
install_print_box(const struct install *in)
{
	const struct install_remote	*r = &in->r;

	printf("%s: %s (uname -m %s), vendor %s", in->dest, r->arch,
	    r->uname, install_vendor_name(r->vendor, 0));
	if (r->id.model[0] != '\0')
		printf(" %s", r->id.model);
	if (r->vendor == INSTALL_DEBIAN || r->vendor == INSTALL_OTHER) {
		if (r->id.pretty_name[0] != '\0')
			printf(" (%s)", r->id.pretty_name);
	} else if (r->id.os[0] != '\0')
		printf(", %s %s", r->id.os, r->id.firmware);
	if (r->uid == 0)
		printf(", as root\n");
	else
		printf(", as uid %ld\n", r->uid);
	if (r->vendor == INSTALL_QNAP && strncmp(in->prefix, "/share/", 7) != 0)
		printf("note: QTS keeps / in RAM: %s is gone after a reboot; "
		    "a prefix under /share/ survives it\n", in->prefix);
}

/* How the daemon is started, for people: "start nasperfd <this>". */
static const char *
install_init_text(const char *name)
{
	if (strcmp(name, "systemd") == 0)
		return ("as a systemd unit, enabled at boot");
	if (strcmp(name, "synology-rc.d") == 0)
		return ("with a script in DSM's /usr/local/etc/rc.d, which "
		    "runs it at boot");
	if (strcmp(name, "qnap-qpkg") == 0)
		return ("with a service script that QTS runs at boot "
		    "(qpkg.conf)");
	return ("as a background process with a pid file");
}

/* The plan, for --dry-run: what would be written and run. */
static void
install_print_plan(const struct install *in, const struct install_files *f)
{
	char	url[200];

	install_url(in, url, sizeof url);
	printf("would install nasperfd on %s:\n", in->dest);
	printf("  copy   %s (%.1f MB)\n         to %s\n", in->binary,
	    (double)in->binsize / 1e6, f->bin);
	printf("  write  %s (api.listen %s, state_dir %s)\n", f->conf,
	    in->listen_addr, in->state);
	if (f->service[0] != '\0')
		printf("  write  %s (start, stop, status)\n", f->service);
	if (f->unit[0] != '\0')
		printf("  write  %s\n", f->unit);
	if (f->rcd[0] != '\0')
		printf("  write  %s (DSM runs it at boot)\n", f->rcd);
	if (strcmp(in->init_name, "qnap-qpkg") == 0)
		printf("  add    [nasperfd] to /etc/config/qpkg.conf (QTS "
		    "runs %s at boot)\n", f->service);
	printf("  write  %s (what nasperf uninstall removes)\n", f->manifest);
	if (in->r.installed)
		printf("  stop   the nasperfd installed there before (%s); "
		    "its state and token stay\n", in->r.old_init);
	printf("  start  nasperfd %s%s%s%s\n",
	    install_init_text(in->init_name), in->init_why != NULL ? " (" :
	    "", in->init_why != NULL ? in->init_why : "",
	    in->init_why != NULL ? ")" : "");
	printf("  wait   for %s, then print the token in %s/token\n", url,
	    in->state);
}

/* Write a here-document that creates path with the text, and list it. */
static void
install_heredoc(FILE *fp, const char *path, const char *mode,
    const char *text)
{
	fprintf(fp, "cat >%s <<'NASPERF_EOF' || np_err \"cannot write %s\"\n"
	    "%sNASPERF_EOF\nchmod %s %s\n", path, path, text, mode, path);
}

/* The service script: start, stop, restart, status with a pid file. */
static void
install_service_text(FILE *fp, const struct install *in,
    const struct install_files *f)
{
	fprintf(fp, "#!/bin/sh\n"
	    "# nasperfd.sh start|stop|restart|status: nasperfd as a background\n"
	    "# process with a pid file.  Written by nasperf install, removed by\n"
	    "# nasperf uninstall.  The packages' nasperfd-ctl, set to this\n"
	    "# install: %s, the pid file and the log in %s.\n"
	    "NASPERF_HOME=%s NASPERF_VAR=%s NASPERFD_CONF=%s NASPERFD_STATE=\n"
	    "export NASPERF_HOME NASPERF_VAR NASPERFD_CONF NASPERFD_STATE\n",
	    f->bin, in->state, in->prefix, in->state, f->conf);
	fputs(install_service_sh, fp);
}

/* The install script: files, manifest, start, wait, token. */
static int
install_build(const struct install *in, const struct install_files *f,
    const char *upload, char **out, size_t *outlen)
{
	char	 url[200], size[32], *text = NULL;
	size_t	 tlen = 0;
	FILE	*fp, *tp;
	json_t	*conf;

	install_url(in, url, sizeof url);
	snprintf(size, sizeof size, "%lld", (long long)in->binsize);
	if ((fp = open_memstream(out, outlen)) == NULL)
		return (-1);
	install_shvar(fp, "P", in->prefix);
	install_shvar(fp, "MANIFEST", INSTALL_MANIFEST);
	install_shvar(fp, "S", in->state);
	install_shvar(fp, "URL", url);
	install_shvar(fp, "UP", upload);
	install_shvar(fp, "SIZE", size);
	install_shvar(fp, "INIT", in->init_name);
	install_shvar(fp, "DRY", "0");
	fputs(install_common_sh, fp);
	fputs(install_pre_sh, fp);
	/* The manifest first: a failure later still leaves its record. */
	fputs("{\n"
"\techo '# nasperf install: what nasperf uninstall stops and removes'\n"
"\techo version=1\n"
"\techo \"date=$(date -u +%Y-%m-%dT%H:%M:%SZ)\"\n"
"\techo \"init=$INIT\"\n"
"\techo \"state=$S\"\n"
"\techo \"statenew=$STATENEW\"\n", fp);
	if (f->service[0] != '\0')
		fprintf(fp, "\techo service=%s\n", f->service);
	if (f->unit[0] != '\0')
		fprintf(fp, "\techo unit=%s\n", f->unit);
	if (f->rcd[0] != '\0')
		fprintf(fp, "\techo rcd=%s\n", f->rcd);
	if (strcmp(in->init_name, "qnap-qpkg") == 0)
		fputs("\techo qpkg=nasperfd\n", fp);
	fprintf(fp, "\techo file=%s\n\techo file=%s\n", f->bin, f->conf);
	if (f->service[0] != '\0')
		fprintf(fp, "\techo file=%s\n\techo file=%s\n\techo file=%s\n",
		    f->service, f->pidf, f->log);
	if (f->unit[0] != '\0')
		fprintf(fp, "\techo file=%s\n", f->unit);
	if (f->rcd[0] != '\0')
		fprintf(fp, "\techo file=%s\n", f->rcd);
	fputs("\techo \"$DIRS\" | grep '^dir=' || :\n"
"} >\"$M.new\" && mv \"$M.new\" \"$M\" || np_err \"cannot write $M\"\n", fp);
	fprintf(fp, "mv \"$UP\" %s && chmod 755 %s ||\n"
	    "    np_err \"cannot install %s\"\n", f->bin, f->bin, f->bin);

	/* The configuration: only what differs from the defaults. */
	if ((tp = open_memstream(&text, &tlen)) == NULL)
		goto fail;
	fputs("# nasperfd.yaml: written by nasperf install; every key not "
	    "given here\n# keeps its default (see nasperfd.yaml(5)).\n", tp);
	conf = json_pack("{s:{s:s},s:s}", "api", "listen", in->listen_addr,
	    "state_dir", in->state);
	if (conf == NULL || report_yaml_write(conf, tp) == -1) {
		json_decref(conf);
		fclose(tp);
		goto fail;
	}
	json_decref(conf);
	if (fclose(tp) != 0)
		goto fail;
	install_heredoc(fp, f->conf, "644", text);
	free(text);
	text = NULL;

	if (f->service[0] != '\0') {
		if ((tp = open_memstream(&text, &tlen)) == NULL)
			goto fail;
		install_service_text(tp, in, f);
		if (fclose(tp) != 0)
			goto fail;
		install_heredoc(fp, f->service, "755", text);
		free(text);
		text = NULL;
	}
	if (f->unit[0] != '\0') {
		if ((tp = open_memstream(&text, &tlen)) == NULL)
			goto fail;
		fprintf(tp,
"# nasperfd.service: written by nasperf install, removed by nasperf\n"
"# uninstall.  The directives are those systemd 214 knows, which the\n"
"# NAS firmwares ship at least.\n"
"[Unit]\n"
"Description=NAS performance daemon (installed by nasperf install)\n"
"Documentation=man:nasperfd(8)\n"
"After=network.target\n"
"\n"
"[Service]\n"
"Type=simple\n"
"ExecStart=%s -f -c %s\n"
"ExecReload=/bin/kill -HUP $MAINPID\n"
"Restart=on-failure\n"
"RestartSec=5\n"
"# A usage or configuration error: restarting cannot help.\n"
"RestartPreventExitStatus=2\n"
"# Open files for every connection api.max_connections and\n"
"# synth.max_streams allow, as nasperfd(8) says.\n"
"LimitNOFILE=16384\n"
"LimitCORE=0\n"
"NoNewPrivileges=yes\n"
"PrivateTmp=yes\n"
"ProtectSystem=full\n"
"UMask=0077\n"
"\n"
"[Install]\n"
"WantedBy=multi-user.target\n", f->bin, f->conf);
		if (fclose(tp) != 0)
			goto fail;
		install_heredoc(fp, f->unit, "644", text);
		free(text);
		text = NULL;
	}
	if (f->rcd[0] != '\0') {
		if ((tp = open_memstream(&text, &tlen)) == NULL)
			goto fail;
		fprintf(tp, "#!/bin/sh\n# nasperfd: DSM runs this at boot "
		    "(start) and at shutdown (stop).\n# Written by nasperf "
		    "install, removed by nasperf uninstall.\n"
		    "exec sh %s \"$@\"\n", f->service);
		if (fclose(tp) != 0)
			goto fail;
		fputs("mkdir -p /usr/local/etc/rc.d\n", fp);
		install_heredoc(fp, f->rcd, "755", text);
		free(text);
		text = NULL;
	}

	/* Start, the way the box starts its services. */
	if (strcmp(in->init_name, "systemd") == 0)
		fputs(install_systemd_sh, fp);
	else {
		if (strcmp(in->init_name, "qnap-qpkg") == 0) {
			fputs("Q=/etc/config/qpkg.conf\n", fp);
			fprintf(fp, "for kv in Name=nasperfd "
			    "Display_Name=nasperfd Version=%s Author=nasperf "
			    "Enable=TRUE Shell=%s Install_Path=$P "
			    "Date=$(date +%%Y-%%m-%%d); do\n"
			    "\tsetcfg nasperfd \"${kv%%%%=*}\" \"${kv#*=}\" "
			    "-f \"$Q\" ||\n\t    np_err \"cannot register "
			    "nasperfd in $Q\"\ndone\n", PACKAGE_VERSION,
			    f->service);
		}
		fprintf(fp, "sh %s start 2>&1 | sed 's/^/np.say=/'\n",
		    f->rcd[0] != '\0' ? f->rcd : f->service);
		fprintf(fp, "np_alive() { sh %s status >/dev/null 2>&1; }\n"
		    "np_pid() { cat %s; }\n"
		    "np_log() { tail -n 20 %s 2>/dev/null | "
		    "sed 's/^/np.log=/'; }\n", f->service, f->pidf, f->log);
	}

	/* Ready once it answers /healthz (or, with no curl or wget there,
	 * once it runs and has its token: the client asks from outside). */
	fputs(install_wait_sh, fp);
	if (fclose(fp) != 0) {
		fp = NULL;
		goto fail;
	}
	return (0);
fail:
	free(text);
	if (fp != NULL)
		fclose(fp);
	free(*out);
	*out = NULL;
	return (-1);
}

/* What the install script answered. */
struct install_result {
	int	 json;		/* print nothing but the JSON */
	char	 token[NASPERF_TOKEN_MAX];
	char	 pid[32];
	char	 version[64];
	int	 answered;
	char	 error[512];
	int	 nlog;
};

/* One line of the install or uninstall script's answer. */
static void
install_result_cb(void *arg, const char *k, char *v)
{
	struct install_result	*res = arg;

	if (strcmp(k, "token") == 0)
		snprintf(res->token, sizeof res->token, "%s", v);
	else if (strcmp(k, "pid") == 0)
		snprintf(res->pid, sizeof res->pid, "%s", v);
	else if (strcmp(k, "version") == 0)
		snprintf(res->version, sizeof res->version, "%s", v);
	else if (strcmp(k, "answered") == 0)
		res->answered = 1;
	else if (strcmp(k, "error") == 0)
		snprintf(res->error, sizeof res->error, "%s", v);
	else if (strcmp(k, "log") == 0) {
		if (res->nlog++ == 0)
			client_fail("the daemon's last log lines:");
		fprintf(stderr, "  %s\n", v);
	} else if ((strcmp(k, "say") == 0 || strcmp(k, "stopped") == 0) &&
	    !res->json)
		printf("  %s\n", v);
}

/* The ssh options and destination, as the user would type them again. */
static void
install_print_cmd(FILE *fp, const struct install *in, const char *cmd)
{
	size_t	i;

	fprintf(fp, "nasperf %s", cmd);
	for (i = 0; i < in->nsshargs; i++)
		fprintf(fp, " %s", in->sshargs[i]);
	if (strcmp(in->prefix, INSTALL_PREFIX) != 0)
		fprintf(fp, " --prefix %s", in->prefix);
	fprintf(fp, " %s\n", in->dest);
}

/* Save the token for --token-file, readable by the user only. */
static int
install_save_token(const char *path, const char *token)
{
	FILE	*fp;
	int	 fd;

	if ((fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
	    0600)) == -1 || (fp = fdopen(fd, "w")) == NULL) {
		if (fd != -1)
			close(fd);
		return (client_fail("--save-token %s: %s", path,
		    strerror(errno)));
	}
	(void)fchmod(fd, 0600);
	fprintf(fp, "%s\n", token);
	if (fclose(fp) != 0)
		return (client_fail("--save-token %s: %s", path,
		    strerror(errno)));
	return (0);
}

/* The install's summary, as a JSON object (or NULL). */
static json_t *
install_json(const struct install *in, const struct install_result *res,
    const char *host)
{
	const struct install_remote	*r = &in->r;

	return (json_pack("{s:s, s:b, s:s, s:s?, s:s, s:s?, s:s?, s:s, s:s, "
	    "s:s, s:s, s:s, s:I, s:s?, s:s?, s:b}",
	    "host", in->dest, "dry_run", in->dry_run, "uname", r->uname,
	    "arch", r->arch, "vendor", install_vendor_name(r->vendor, 1),
	    "model", r->id.model[0] != '\0' ? r->id.model : NULL,
	    "firmware", r->id.firmware[0] != '\0' ? r->id.firmware : NULL,
	    "init", in->init_name, "prefix", in->prefix, "state_dir",
	    in->state, "binary", in->binary, "api_host", host,
	    "api_port", (json_int_t)in->port,
	    "token", res != NULL && res->token[0] != '\0' ? res->token : NULL,
	    "pid", res != NULL && res->pid[0] != '\0' ? res->pid : NULL,
	    "answered", res != NULL && res->answered));
}

/*
 * The daemon's host as the next nasperf command names it with -H (an IPv6
 * address in brackets) and as a connection names it (without): the
 * address it listens on, or the host ssh reached when that is all of them.
 */
static void
install_api_host(const struct install *in, char *h, size_t hsz, char *conn,
    size_t connsz)
{
	const char	*colon = strrchr(in->listen_addr, ':');
	const char	*a = in->listen_addr;
	int		 alen = (int)(colon - a);

	if (in->wildcard) {
		a = in->hostname;
		alen = (int)strlen(a);
	} else if (a[0] == '[') {
		a++;
		alen -= 2;
	}
	snprintf(conn, connsz, "%.*s", alen, a);
	snprintf(h, hsz, strchr(conn, ':') != NULL ? "[%s]" : "%s", conn);
}

/*
 * The options install and uninstall share: ssh's -p, -i, -F and -o, and
 * --prefix.  Returns 1 when ch was one of them, -1 on a bad value.
 */
static int
install_common_opt(struct install *in, int ch, const char *arg)
{
	const char	*why;

	switch (ch) {
	case 'p':
	case 'i':
	case 'F':
	case 'o':
		if (in->nsshargs + 2 > INSTALL_MAX_SSHARGS) {
			client_fail("too many ssh options");
			return (-1);
		}
		in->sshargs[in->nsshargs++] = ch == 'p' ? "-p" : ch == 'i' ?
		    "-i" : ch == 'F' ? "-F" : "-o";
		in->sshargs[in->nsshargs++] = arg;
		return (1);
	case 'P':
		if (install_path_ok(arg, &why) == -1) {
			client_fail("--prefix %s: %s", arg, why);
			return (-1);
		}
		snprintf(in->prefix, sizeof in->prefix, "%s", arg);
		return (1);
	}
	return (0);
}

/* Check the destination and set up what both commands need. */
static int
install_setup(struct install *in, int argc, char **argv)
{
	const char	*env;

	if (optind != argc - 1)
		return (args_fail("expected one [USER@]HOST"));
	in->dest = argv[optind];
	if (in->dest[0] == '-' || in->dest[0] == '\0' ||
	    strchr(in->dest, '\n') != NULL)
		return (args_fail("%s: expected [USER@]HOST", in->dest));
	if ((env = getenv("NASPERF_DETECT_ROOT")) != NULL && *env != '\0')
		in->detect_root = env;
	in->batch = !isatty(STDIN_FILENO);
	snprintf(in->tmpdir, sizeof in->tmpdir, "/tmp/nasperf-ssh.XXXXXX");
	if (mkdtemp(in->tmpdir) == NULL) {
		client_fail("mkdtemp %s: %s", in->tmpdir, strerror(errno));
		in->tmpdir[0] = '\0';
		return (1);
	}
	install_resolve(in);
	return (0);
}

static const struct option install_longopts[] = {
	{ "prefix",	required_argument,	NULL, 'P' },
	{ "state-dir",	required_argument,	NULL, 'S' },
	{ "binaries",	required_argument,	NULL, 'B' },
	{ "listen",	required_argument,	NULL, 'l' },
	{ "init",	required_argument,	NULL, 'I' },
	{ "save-token",	required_argument,	NULL, 's' },
	{ "dry-run",	no_argument,		NULL, 'n' },
	{ NULL,		0,			NULL, 0 }
};

static const struct args_cmd install_args = {
	"install", "p:i:F:o:n", install_longopts, 0,
"usage: nasperf install [-n] [-p PORT] [-i FILE] [-F FILE] [-o OPTION]\n"
"                       [--prefix DIR] [--state-dir DIR] [--binaries DIR]\n"
"                       [--listen ADDR:PORT]\n"
"                       [--init auto|systemd|vendor|plain]\n"
"                       [--save-token FILE] [USER@]HOST\n"
"Over ssh: copy the static nasperfd for the NAS's architecture, start it\n"
"as the box starts its services, wait for it and print its token.\n"
"\n"
"Options:\n"
"  -n, --dry-run         detect the NAS and say what would be done\n"
"  -p PORT, -i FILE, -F FILE, -o OPTION\n"
"                        passed to ssh\n"
"      --prefix DIR      where the files go (default /opt/nasperf)\n"
"      --state-dir DIR   the daemon's state (default PREFIX/var)\n"
"      --binaries DIR    the static daemons, DIR/ARCH/nasperfd\n"
"      --listen ADDR:PORT\n"
"                        the daemon's address (default 0.0.0.0:9631)\n"
"      --init INIT       auto, systemd, vendor or plain (default auto)\n"
"      --save-token FILE also write the token to FILE (mode 0600)\n"
};

static const struct option uninstall_longopts[] = {
	{ "prefix",	required_argument,	NULL, 'P' },
	{ "dry-run",	no_argument,		NULL, 'n' },
	{ NULL,		0,			NULL, 0 }
};

static const struct args_cmd uninstall_args = {
	"uninstall", "p:i:F:o:n", uninstall_longopts, 0,
"usage: nasperf uninstall [-n] [-p PORT] [-i FILE] [-F FILE] [-o OPTION]\n"
"                         [--prefix DIR] [USER@]HOST\n"
"Over ssh: stop the daemon install started and remove every file and\n"
"directory it created, its state included.\n"
"\n"
"Options:\n"
"  -n, --dry-run         say what would be removed\n"
"  -p PORT, -i FILE, -F FILE, -o OPTION\n"
"                        passed to ssh\n"
"      --prefix DIR      where install put the files (default\n"
"                        /opt/nasperf)\n"
};

/*
 * nasperf install [options] [USER@]HOST: detect the NAS, copy the static
 * nasperfd for its architecture, write a configuration, start it, wait
 * until it answers, print its token.
 */
int
cmd_install(struct client *c, int argc, char **argv)
{
	struct install		*in;
	struct install_files	 f;
	struct install_result	 res;
	struct install_buf	 out = { NULL, 0, 0 };
	const char		*why;
	char			 up[INSTALL_PATH_MAX], host[300], conn[300];
	char			 why2[256];
	char			*script = NULL;
	size_t			 slen = 0;
	json_t			*j;
	int			 ch, rc = 1, status, r;

	if ((in = calloc(1, sizeof *in)) == NULL)
		return (client_fail("out of memory"));
	memset(&res, 0, sizeof res);
	in->c = c;
	in->mux = 1;
	in->bindir = NASPERF_STATIC_DIR;
	snprintf(in->prefix, sizeof in->prefix, "%s", INSTALL_PREFIX);
	(void)install_parse_listen(in, INSTALL_LISTEN);
	optind = 0;
	while ((ch = args_getopt(c, argc, argv, &install_args)) != -1) {
		if ((r = install_common_opt(in, ch, optarg)) == 1)
			continue;
		if (r == -1) {
			rc = 2;
			goto out;
		}
		switch (ch) {
		case 'S':
			if (install_path_ok(optarg, &why) == -1) {
				client_fail("--state-dir %s: %s", optarg, why);
				rc = 2;
				goto out;
			}
			snprintf(in->state, sizeof in->state, "%s", optarg);
			break;
		case 'B':
			in->bindir = optarg;
			break;
		case 'l':
			if (install_parse_listen(in, optarg) == -1) {
				client_fail("--listen %s: expected ADDR:PORT, "
				    "such as 0.0.0.0:9631 or [::]:9631",
				    optarg);
				rc = 2;
				goto out;
			}
			break;
		case 'I':
			if (strcmp(optarg, "auto") == 0)
				in->init_opt = INSTALL_INIT_AUTO;
			else if (strcmp(optarg, "systemd") == 0)
				in->init_opt = INSTALL_INIT_SYSTEMD;
			else if (strcmp(optarg, "vendor") == 0)
				in->init_opt = INSTALL_INIT_VENDOR;
			else if (strcmp(optarg, "plain") == 0)
				in->init_opt = INSTALL_INIT_PLAIN;
			else {
				client_fail("--init %s: expected auto, "
				    "systemd, vendor or plain", optarg);
				rc = 2;
				goto out;
			}
			break;
		case 's':
			in->save_token = optarg;
			break;
		case 'n':
			in->dry_run = 1;
			break;
		default:
			rc = args_exit(ch);
			goto out;
		}
	}
	/* install_path_ok() kept the prefix 32 bytes short of the size. */
	if (in->state[0] == '\0' && snprintf(in->state, sizeof in->state,
	    "%s/var", in->prefix) >= (int)sizeof in->state) {
		client_fail("--prefix %s: too long", in->prefix);
		rc = 2;
		goto out;
	}
	if ((rc = install_setup(in, argc, argv)) != 0)
		goto out;
	rc = 1;
	res.json = c->json;

	if (install_detect(in) != 0 || install_binary(in) != 0 ||
	    install_choose_init(in) != 0)
		goto out;
	install_files(in, &f);
	install_api_host(in, host, sizeof host, conn, sizeof conn);
	if (in->dry_run) {
		if (c->json) {
			j = install_json(in, NULL, host);
			client_print_json(j, CLIENT_JSON);
			json_decref(j);
		} else {
			install_print_box(in);
			install_print_plan(in, &f);
		}
		rc = 0;
		goto out;
	}
	if (!c->json) {
		install_print_box(in);
		printf("copying %s (%.1f MB) to %s/bin\n", in->binary,
		    (double)in->binsize / 1e6, in->prefix);
	}
	if (install_upload(in, up, sizeof up) != 0)
		goto out;
	if (!c->json)
		printf("starting nasperfd %s%s%s%s\n",
		    install_init_text(in->init_name), in->init_why != NULL ?
		    " (" : "", in->init_why != NULL ? in->init_why : "",
		    in->init_why != NULL ? ")" : "");
	if (install_build(in, &f, up, &script, &slen) == -1) {
		client_fail("out of memory");
		goto out;
	}
	status = install_script(in, script, slen, &out);
	if (status == 255 || status == -1)
		goto out;
	install_lines(&out, install_result_cb, &res);
	if (status != 0 || res.token[0] == '\0') {
		if (res.error[0] != '\0')
			client_fail("%s: %s", in->dest, res.error);
		else
			client_fail("%s: the install script failed with "
			    "status %d", in->dest, status);
		fprintf(stderr, "nasperf %s: what it wrote is listed in %s; "
		    "undo with: ", args_command(), f.manifest);
		install_print_cmd(stderr, in, "uninstall");
		goto out;
	}

	/* As the next command will: from here, to the address it names. */
	if (client_check(conn, in->port, "/healthz", c->timeout, why2,
	    sizeof why2) == -1) {
		if (!res.answered) {
			client_fail("nasperfd runs on %s but %s port %u does "
			    "not answer from here: %s", in->dest, host,
			    in->port, why2);
			goto out;
		}
		client_fail("warning: nasperfd answers on the NAS but not "
		    "from here at %s port %u: %s (a firewall on the NAS, or "
		    "api.allow?)", host, in->port, why2);
	}
	if (in->save_token != NULL &&
	    install_save_token(in->save_token, res.token) != 0)
		goto out;
	if (c->json) {
		j = install_json(in, &res, host);
		client_print_json(j, CLIENT_JSON);
		json_decref(j);
	} else {
		printf("%s answers at %s:%u (pid %s)\n\n", res.version[0] !=
		    '\0' ? res.version : "nasperfd", host, in->port,
		    res.pid[0] != '\0' ? res.pid : "?");
		printf("token: %s\n", res.token);
		if (in->save_token != NULL)
			printf("next:  nasperf -H %s:%u --token-file %s info\n",
			    host, in->port, in->save_token);
		else
			printf("next:  NASPERF_TOKEN=%s nasperf -H %s:%u "
			    "info\n", res.token, host, in->port);
		printf("undo:  ");
		install_print_cmd(stdout, in, "uninstall");
	}
	rc = 0;
out:
	free(script);
	install_buf_free(&out);
	install_close(in);
	install_remote_clear(&in->r);
	free(in);
	return (rc);
}

/* What the uninstall script answered. */
struct uninstall_result {
	int	 json;		/* print nothing but the JSON */
	int	 none;
	int	 dry_run;
	int	 done;
	char	 error[512];
	json_t	*removed, *kept;
};

/* One line of the uninstall script's answer, printed as it is read. */
static void
uninstall_cb(void *arg, const char *k, char *v)
{
	struct uninstall_result	*u = arg;

	if (strcmp(k, "none") == 0)
		u->none = 1;
	else if (strcmp(k, "done") == 0)
		u->done = 1;
	else if (strcmp(k, "error") == 0)
		snprintf(u->error, sizeof u->error, "%s", v);
	else if (strcmp(k, "stopped") == 0 || strcmp(k, "say") == 0) {
		if (!u->json)
			printf("  %s\n", v);
	} else if (strcmp(k, "removed") == 0) {
		if (!u->json)
			printf("  %s %s\n", u->dry_run ? "would remove" :
			    "removed", v);
		json_array_append_new(u->removed, json_string(v));
	} else if (strcmp(k, "kept") == 0) {
		if (!u->json)
			printf("  kept %s\n", v);
		json_array_append_new(u->kept, json_string(v));
	}
}

/*
 * nasperf uninstall [options] [USER@]HOST: stop the daemon an install
 * started, however it was started, and remove every file it wrote.
 */
int
cmd_uninstall(struct client *c, int argc, char **argv)
{
	struct install		*in;
	struct uninstall_result	 u;
	struct install_buf	 out = { NULL, 0, 0 };
	char			*s = NULL;
	size_t			 len = 0;
	FILE			*fp;
	json_t			*j;
	int			 ch, rc = 1, status, r;

	memset(&u, 0, sizeof u);
	if ((in = calloc(1, sizeof *in)) == NULL)
		return (client_fail("out of memory"));
	in->c = c;
	snprintf(in->prefix, sizeof in->prefix, "%s", INSTALL_PREFIX);
	optind = 0;
	while ((ch = args_getopt(c, argc, argv, &uninstall_args)) != -1) {
		if ((r = install_common_opt(in, ch, optarg)) == 1)
			continue;
		if (r == -1) {
			rc = 2;
			goto out;
		}
		if (ch == 'n')
			in->dry_run = 1;
		else {
			rc = args_exit(ch);
			goto out;
		}
	}
	if ((rc = install_setup(in, argc, argv)) != 0)
		goto out;
	rc = 1;

	if ((fp = open_memstream(&s, &len)) == NULL) {
		client_fail("out of memory");
		goto out;
	}
	install_shvar(fp, "P", in->prefix);
	install_shvar(fp, "MANIFEST", INSTALL_MANIFEST);
	install_shvar(fp, "DRY", in->dry_run ? "1" : "0");
	fputs(install_common_sh, fp);
	fputs(install_uninstall_sh, fp);
	if (fclose(fp) != 0) {
		client_fail("out of memory");
		goto out;
	}
	u.dry_run = in->dry_run;
	u.json = c->json;
	u.removed = json_array();
	u.kept = json_array();
	if (!c->json)
		printf("%s %s at %s:\n", in->dry_run ? "would uninstall" :
		    "uninstalling", in->dest, in->prefix);
	/* One session: no control master. */
	status = install_script(in, s, len, &out);
	if (status == 255 || status == -1)
		goto out;
	install_lines(&out, uninstall_cb, &u);
	if (status != 0 || (!u.none && !u.done)) {
		client_fail("%s: %s", in->dest, u.error[0] != '\0' ? u.error :
		    "the uninstall script failed");
		goto out;
	}
	if (c->json) {
		j = json_pack("{s:s, s:s, s:b, s:b, s:O, s:O}", "host",
		    in->dest, "prefix", in->prefix, "dry_run", in->dry_run,
		    "installed", !u.none, "removed", u.removed, "kept",
		    u.kept);
		client_print_json(j, CLIENT_JSON);
		json_decref(j);
	} else if (u.none)
		printf("  nothing to do: no nasperf install at %s\n",
		    in->prefix);
	else
		printf("%s nasperfd from %s (%zu paths)\n", in->dry_run ?
		    "would remove" : "removed", in->dest,
		    json_array_size(u.removed));
	rc = 0;
out:
	free(s);
	json_decref(u.removed);
	json_decref(u.kept);
	install_buf_free(&out);
	install_close(in);
	free(in);
	return (rc);
}
