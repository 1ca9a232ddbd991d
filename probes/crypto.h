/*
 * crypto.h: the kernel's crypto algorithms from /proc/crypto.
 *
 * Used for the encryption hints: an encrypted share is CPU-bound unless a
 * hardware engine (Marvell CESA, Annapurna Labs, Inside Secure SafeXcel,
 * Intel QAT, AMD CCP...) or CPU instructions (AES-NI, ARMv8 CE, NEON)
 * carry the cipher.
 */
#ifndef CRYPTO_H
#define CRYPTO_H

#include <stddef.h>
#include <stdint.h>

#include "probe.h"

#define CRYPTO_NAME_MAX	64

enum crypto_accel {
	CRYPTO_ACCEL_NONE,		/* generic C code */
	CRYPTO_ACCEL_CPU,		/* CPU instructions: aesni, -ce, -neon */
	CRYPTO_ACCEL_HW			/* an offload engine */
};

struct crypto_alg {
	char		name[CRYPTO_NAME_MAX];		/* "cbc(aes)" */
	char		driver[CRYPTO_NAME_MAX];	/* "mv-cbc-aes" */
	char		module[CRYPTO_NAME_MAX];	/* "marvell_cesa", "kernel" */
	char		type[32];			/* "skcipher", "ahash" */
	int64_t		priority;
	int		internal;	/* "internal : yes": not for users */
	int		selftest_passed;	/* 1 passed, 0 not, -1 unknown */
	enum crypto_accel accel;
};

struct crypto {
	struct crypto_alg *algs;
	size_t		 nalgs;
	size_t		 cap;
	size_t		 nhw;		/* algorithms with CRYPTO_ACCEL_HW */
	size_t		 ncpu;		/* algorithms with CRYPTO_ACCEL_CPU */
};

/* Initialise an empty list. */
void	crypto_init(struct crypto *);
/* Release its memory; c may be reused after crypto_init. */
void	crypto_clear(struct crypto *);
/* Read <root>/proc/crypto; -1 and errno (ENOENT: not available). */
int	crypto_read(const struct probe_root *, struct probe_buf *,
	    struct crypto *, const char **errstr);
/* Parse /proc/crypto text; entries without a name or driver are dropped. */
int	crypto_parse(const char *, size_t, struct crypto *, const char **);
/* Classify one algorithm by its driver, module and priority. */
enum crypto_accel crypto_classify(const struct crypto_alg *);
/* "none", "cpu" or "hw". */
const char *crypto_accel_name(enum crypto_accel);

#endif /* CRYPTO_H */
