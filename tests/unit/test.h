/*
 * test.h: a small TAP harness for the unit tests.
 *
 * Each check prints one "ok N - what" or "not ok N - what" line with the
 * values that differed; t_done() prints the plan and gives the exit code.
 * Fixture trees are found through $NP_FIXTURES (set by make check), so
 * VPATH builds and make distcheck work.
 */
#ifndef TEST_H
#define TEST_H

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "probe.h"

static int	t_count, t_failed;

/* Record one check; print the extra diagnostic when it failed. */
static NP_PRINTF(5, 6) int
t_check(int pass, const char *what, const char *file, int line,
    const char *fmt, ...)
{
	va_list	ap;

	t_count++;
	printf("%s %d - %s\n", pass ? "ok" : "not ok", t_count, what);
	if (!pass) {
		t_failed++;
		printf("#   at %s:%d\n", file, line);
		if (fmt != NULL && *fmt != '\0') {
			printf("#   ");
			va_start(ap, fmt);
			vprintf(fmt, ap);
			va_end(ap);
			printf("\n");
		}
	}
	fflush(stdout);
	return (pass);
}

#define T_TRUE(c)							\
	t_check((c) ? 1 : 0, #c, __FILE__, __LINE__, "%s", "")
#define T_OK(e) do {							\
	int t_rc_ = (e);						\
	t_check(t_rc_ == 0, #e, __FILE__, __LINE__,			\
	    "returned %d, errno %d (%s)", t_rc_, errno, strerror(errno)); \
} while (0)
#define T_ERRNO(e, want) do {						\
	int t_rc_;							\
	errno = 0;							\
	t_rc_ = (e);							\
	t_check(t_rc_ == -1 && errno == (want), #e " fails with " #want, \
	    __FILE__, __LINE__, "returned %d, errno %d (%s)", t_rc_,	\
	    errno, strerror(errno));					\
} while (0)
#define T_EQ_INT(a, b) do {						\
	long long t_a_ = (long long)(a), t_b_ = (long long)(b);		\
	t_check(t_a_ == t_b_, #a " == " #b, __FILE__, __LINE__,	\
	    "got %lld, want %lld", t_a_, t_b_);				\
} while (0)
#define T_EQ_U64(a, b) do {						\
	uint64_t t_a_ = (uint64_t)(a), t_b_ = (uint64_t)(b);		\
	t_check(t_a_ == t_b_, #a " == " #b, __FILE__, __LINE__,	\
	    "got %" PRIu64 ", want %" PRIu64, t_a_, t_b_);		\
} while (0)
#define T_EQ_STR(a, b) do {						\
	const char *t_a_ = (a), *t_b_ = (b);				\
	t_check(t_a_ != NULL && t_b_ != NULL && strcmp(t_a_, t_b_) == 0, \
	    #a " == \"" #b "\"", __FILE__, __LINE__, "got \"%s\", want \"%s\"", \
	    t_a_ ? t_a_ : "(null)", t_b_ ? t_b_ : "(null)");		\
} while (0)
#define T_NEAR(a, b, eps) do {						\
	double t_a_ = (double)(a), t_b_ = (double)(b);			\
	t_check(t_a_ - t_b_ <= (eps) && t_b_ - t_a_ <= (eps),		\
	    #a " ~= " #b, __FILE__, __LINE__, "got %g, want %g", t_a_, t_b_); \
} while (0)

/* Skip one check with a reason. */
static NP_UNUSED void
t_skip(const char *why)
{
	t_count++;
	printf("ok %d # SKIP %s\n", t_count, why);
	fflush(stdout);
}

/*
 * Open fixture tree name under $NP_FIXTURES; the root is static and lives
 * until exit.  "empty" is an empty directory (every probe: ENOENT).
 */
static NP_UNUSED const struct probe_root *
t_root(const char *name)
{
	static struct probe_root	roots[16];
	static char			names[16][64];
	static int			nroots;
	const char			*base;
	char				 path[4096];
	int				 i;

	for (i = 0; i < nroots; i++)
		if (strcmp(names[i], name) == 0)
			return (&roots[i]);
	if (nroots == 16) {
		printf("Bail out! too many fixture roots\n");
		exit(1);
	}
	if ((base = getenv("NP_FIXTURES")) == NULL)
		base = "tests/fixtures/trees";
	snprintf(path, sizeof path, "%s/%s", base, name);
	if (probe_root_open(&roots[nroots], path) == -1) {
		printf("Bail out! fixture %s: %s\n", path, strerror(errno));
		exit(1);
	}
	snprintf(names[nroots], sizeof names[nroots], "%s", name);
	return (&roots[nroots++]);
}

/* 1 if fixture box name was unpacked under $NP_FIXTURES. */
static NP_UNUSED int
t_have_box(const char *name)
{
	const char	*base;
	char		 path[4096];

	if ((base = getenv("NP_FIXTURES")) == NULL)
		base = "tests/fixtures/trees";
	snprintf(path, sizeof path, "%s/%s", base, name);
	return (access(path, F_OK) == 0);
}

/* Write text to dir/rel, making the directories on the way; bail out on error. */
static NP_UNUSED void
t_put(const char *dir, const char *rel, const char *text)
{
	char	 path[4096], *p;
	FILE	*f;

	snprintf(path, sizeof path, "%s/%s", dir, rel);
	for (p = path + strlen(dir) + 1; (p = strchr(p, '/')) != NULL; p++) {
		*p = '\0';
		(void)mkdir(path, 0755);
		*p = '/';
	}
	if ((f = fopen(path, "w")) == NULL) {
		printf("Bail out! %s: %s\n", path, strerror(errno));
		exit(1);
	}
	fputs(text, f);
	fclose(f);
}

/* Make the symbolic link dir/rel pointing to target; bail out on error. */
static NP_UNUSED void
t_link(const char *dir, const char *rel, const char *target)
{
	char	path[4096];

	snprintf(path, sizeof path, "%s/%s", dir, rel);
	if (symlink(target, path) == -1) {
		printf("Bail out! %s: %s\n", path, strerror(errno));
		exit(1);
	}
}

/*
 * Read tests/fixtures/<rel> of the source tree ($NP_SRCDIR) into a new
 * NUL-terminated buffer the caller frees; bail out when it cannot.
 */
static NP_UNUSED char *
t_fixture(const char *rel, size_t *len)
{
	const char	*src = getenv("NP_SRCDIR");
	char		 path[4096], *buf = NULL;
	FILE		*f;
	long		 n;

	snprintf(path, sizeof path, "%s/tests/fixtures/%s",
	    src != NULL ? src : ".", rel);
	if ((f = fopen(path, "rb")) == NULL || fseek(f, 0, SEEK_END) == -1 ||
	    (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) == -1 ||
	    (buf = malloc((size_t)n + 1)) == NULL ||
	    fread(buf, 1, (size_t)n, f) != (size_t)n) {
		printf("Bail out! %s: %s\n", path, strerror(errno));
		exit(1);
	}
	fclose(f);
	buf[n] = '\0';
	*len = (size_t)n;
	return (buf);
}

/* Print the plan; the exit status is 1 if any check failed. */
static int
t_done(void)
{
	printf("1..%d\n", t_count);
	return (t_failed ? 1 : 0);
}

#endif /* TEST_H */
