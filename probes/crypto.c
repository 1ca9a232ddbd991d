/*
 * crypto.c: /proc/crypto.
 */
#include "config.h"

#include <errno.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "crypto.h"

/* Driver names of offload engines, as their kernel drivers register them. */
static const char *const crypto_hw_drivers[] = {
	"*-cesa", "mv-*", "safexcel-*", "al-crypto*", "al_crypto*", "qat_*",
	"qat-*", "ccp-*", "*-caam", "caam-*", "*-talitos", "*-omap", "atmel-*",
	"*-sun8i-ce", "*-sun4i-ss", "*-qce", "*-rk", "*-chcr", "*-nx",
	"n2_*", "*-iproc", "*-eip93", "*-eip97", "artpec*", "*-zynqmp*",
	"*-hifn", "*-img", "*-ixp4xx", "*-mtk", "*-sahara", "*-dcp",
	"*-keembay-ocs", "*-hisi", "hisi-*", "*-ccree", "*-ccree-*"
};

/* Driver names of CPU-instruction implementations. */
static const char *const crypto_cpu_drivers[] = {
	"*aesni*", "*-ce", "*-ce-*", "*_ce", "*-neon", "*-neon-*", "*neonbs*",
	"*-avx*", "*-avx2*", "*-avx512*", "*-ssse3*", "*-sse2*", "*-sse4*",
	"*-pclmul*", "*-clmulni*", "*-intel", "*-vaes*", "*padlock*", "*-x86_64",
	"*-asm", "*-arm", "*-arm64", "*-riscv64*", "*-zvk*", "*-s390*",
	"*-ppc-spe", "*-vmx", "*-power8"
};

/* Initialise an empty list. */
void
crypto_init(struct crypto *c)
{
	memset(c, 0, sizeof *c);
}

/* Release the list. */
void
crypto_clear(struct crypto *c)
{
	if (c == NULL)
		return;
	free(c->algs);
	memset(c, 0, sizeof *c);
}

/* Whether s matches one of n fnmatch patterns. */
static int
crypto_match(const char *s, const char *const *pats, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++)
		if (fnmatch(pats[i], s, 0) == 0)
			return (1);
	return (0);
}

/*
 * Classify one algorithm.  Known engines first ("-sun8i-ce" is an engine,
 * not ARMv8 CE), then CPU instructions, before the priority rule:
 * aesni_intel registers at priority 400 from a module and would otherwise
 * look like an engine.
 */
enum crypto_accel
crypto_classify(const struct crypto_alg *a)
{
	/* Engines may be built in: DSM 6 lists mv_cesa as module "kernel". */
	if (crypto_match(a->driver, crypto_hw_drivers,
	    NP_NITEMS(crypto_hw_drivers)))
		return (CRYPTO_ACCEL_HW);
	if (crypto_match(a->driver, crypto_cpu_drivers,
	    NP_NITEMS(crypto_cpu_drivers)))
		return (CRYPTO_ACCEL_CPU);
	if (a->priority >= 300 && strstr(a->driver, "generic") == NULL &&
	    strcmp(a->module, "kernel") != 0 && strcmp(a->module, "") != 0 &&
	    strstr(a->driver, "cryptd") == NULL &&
	    strncmp(a->name, "__", 2) != 0)
		return (CRYPTO_ACCEL_HW);
	return (CRYPTO_ACCEL_NONE);
}

/* The name of an acceleration class. */
const char *
crypto_accel_name(enum crypto_accel a)
{
	switch (a) {
	case CRYPTO_ACCEL_CPU:
		return ("cpu");
	case CRYPTO_ACCEL_HW:
		return ("hw");
	default:
		return ("none");
	}
}

/* Finish one entry: keep it when it has a name and driver. */
static int
crypto_end(struct crypto *c, struct crypto_alg *a)
{
	struct crypto_alg	*p;
	size_t			 ncap;

	if (a->name[0] == '\0' || a->driver[0] == '\0')
		goto reset;
	if (c->nalgs == c->cap) {
		ncap = c->cap == 0 ? 32 : c->cap * 2;
		if ((p = reallocarray(c->algs, ncap, sizeof *p)) == NULL)
			return (-1);
		c->algs = p;
		c->cap = ncap;
	}
	a->accel = crypto_classify(a);
	if (a->accel == CRYPTO_ACCEL_HW)
		c->nhw++;
	else if (a->accel == CRYPTO_ACCEL_CPU)
		c->ncpu++;
	c->algs[c->nalgs++] = *a;
reset:
	memset(a, 0, sizeof *a);
	a->selftest_passed = -1;
	return (0);
}

/* Copy the value of a "key : value" line, trimmed, into out. */
static void
crypto_value(const char *s, const char *eol, char *out, size_t outsz)
{
	size_t	n;

	while (s < eol && (*s == ' ' || *s == '\t'))
		s++;
	while (eol > s && (eol[-1] == ' ' || eol[-1] == '\t'))
		eol--;
	n = (size_t)(eol - s);
	if (n >= outsz)
		n = outsz - 1;
	memcpy(out, s, n);
	out[n] = '\0';
}

/* Parse /proc/crypto text into c. */
int
crypto_parse(const char *text, size_t len, struct crypto *c,
    const char **errstr)
{
	const char		*line, *eol, *end, *colon, *k;
	struct crypto_alg	 a;
	char			 key[32], val[32];
	const char		*vs;
	uint64_t		 pr;
	size_t			 klen;

	if (errstr != NULL)
		*errstr = NULL;
	c->nalgs = c->nhw = c->ncpu = 0;
	memset(&a, 0, sizeof a);
	a.selftest_passed = -1;
	end = text + len;
	for (line = text; line < end; line = eol + 1) {
		if ((eol = memchr(line, '\n', (size_t)(end - line))) == NULL)
			eol = end;
		if ((colon = memchr(line, ':', (size_t)(eol - line))) == NULL) {
			if (crypto_end(c, &a) == -1)
				return (-1);
			continue;
		}
		for (k = colon; k > line && (k[-1] == ' ' || k[-1] == '\t'); k--)
			;
		klen = (size_t)(k - line);
		if (klen == 0 || klen >= sizeof key)
			continue;
		memcpy(key, line, klen);
		key[klen] = '\0';
		if (strcmp(key, "name") == 0) {
			/* A name with no blank line before it starts anew. */
			if (a.name[0] != '\0' && crypto_end(c, &a) == -1)
				return (-1);
			crypto_value(colon + 1, eol, a.name, sizeof a.name);
		} else if (strcmp(key, "driver") == 0)
			crypto_value(colon + 1, eol, a.driver, sizeof a.driver);
		else if (strcmp(key, "module") == 0)
			crypto_value(colon + 1, eol, a.module, sizeof a.module);
		else if (strcmp(key, "type") == 0)
			crypto_value(colon + 1, eol, a.type, sizeof a.type);
		else if (strcmp(key, "priority") == 0) {
			vs = colon + 1;
			if (probe_scan_u64(&vs, &pr) == 0 && pr <= INT32_MAX)
				a.priority = (int64_t)pr;
		} else if (strcmp(key, "internal") == 0) {
			crypto_value(colon + 1, eol, val, sizeof val);
			a.internal = strcmp(val, "yes") == 0;
		} else if (strcmp(key, "selftest") == 0) {
			crypto_value(colon + 1, eol, val, sizeof val);
			a.selftest_passed = strcmp(val, "passed") == 0;
		}
	}
	return (crypto_end(c, &a));
}

/* Read <root>/proc/crypto. */
int
crypto_read(const struct probe_root *root, struct probe_buf *b,
    struct crypto *c, const char **errstr)
{
	if (errstr != NULL)
		*errstr = NULL;
	if (probe_read(root, PROBE_PROC, "crypto", b) == -1)
		return (-1);
	return (crypto_parse(b->p, b->len, c, errstr));
}
