/*
 * tls_fp.h: a certificate's SHA-256 fingerprint as nasperfd prints it and
 * nasperf pins it: "SHA256:" and 32 upper-case hex pairs with colons, as
 * openssl x509 -fingerprint -sha256 prints them.
 */
#ifndef TLS_FP_H
#define TLS_FP_H

#include <stddef.h>

struct x509_st;

/* "SHA256:" and 32 bytes as hex pairs with colons, and a NUL */
#define TLS_FP_SIZE	(7 + 32 * 3)

/* The fingerprint of x into fp (TLS_FP_SIZE bytes at least); -1 on error. */
int	tls_fingerprint(struct x509_st *x, char *fp, size_t fpsz);

#endif /* TLS_FP_H */
