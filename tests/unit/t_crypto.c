/*
 * t_crypto.c: /proc/crypto acceleration classes and /proc/net/rpc/nfsd.
 */
#include "config.h"

#include "test.h"
#include "crypto.h"
#include "nfsd.h"

/* Entries as the Armada 385 (marvell_cesa module) capture prints them. */
static const char armada[] =
    "name         : hmac(sha256)\n"
    "driver       : mv-hmac-sha256\n"
    "module       : marvell_cesa\n"
    "priority     : 0\n"
    "refcnt       : 1\n"
    "selftest     : passed\n"
    "internal     : no\n"
    "type         : ahash\n"
    "async        : yes\n"
    "blocksize    : 64\n"
    "digestsize   : 32\n"
    "\n"
    "name         : cbc(aes)\n"
    "driver       : mv-cbc-aes\n"
    "module       : marvell_cesa\n"
    "priority     : 300\n"
    "refcnt       : 1\n"
    "selftest     : passed\n"
    "internal     : no\n"
    "type         : skcipher\n"
    "\n"
    "name         : crc32c\n"
    "driver       : crc32c-generic\n"
    "module       : kernel\n"
    "priority     : 100\n"
    "type         : shash\n"
    "\n"
    "name         : __cbc(aes)\n"
    "driver       : __cbc-aes-aesni\n"
    "module       : aesni_intel\n"
    "priority     : 400\n"
    "internal     : yes\n"
    "\n"
    "name         : xts(aes)\n"
    "driver       : xts-aes-ce\n"
    "module       : aes_ce_blk\n"
    "priority     : 300\n"
    "\n"
    "name         : cbc(aes)\n"
    "driver       : cbc-aes-sun8i-ce\n"
    "module       : sun8i_ce\n"
    "priority     : 400\n"
    "\n"
    "name         : gcm(aes)\n"
    "driver       : gcm-aes-somevendor\n"
    "module       : vendor_engine\n"
    "priority     : 350\n"
    "\n"
    "driver       : orphan-no-name\n"
    "priority     : 99999999999999999999\n";

/* Classes of the inline entries. */
static void
t_crypto_parse(void)
{
	struct crypto	c;

	crypto_init(&c);
	T_OK(crypto_parse(armada, sizeof armada - 1, &c, NULL));
	T_EQ_INT(c.nalgs, 7);
	T_EQ_STR(c.algs[0].driver, "mv-hmac-sha256");
	T_EQ_STR(c.algs[0].module, "marvell_cesa");
	T_EQ_STR(c.algs[0].type, "ahash");
	T_EQ_INT(c.algs[0].selftest_passed, 1);
	T_EQ_INT(c.algs[0].accel, CRYPTO_ACCEL_HW);
	T_EQ_INT(c.algs[1].priority, 300);
	T_EQ_INT(c.algs[1].accel, CRYPTO_ACCEL_HW);
	T_EQ_INT(c.algs[2].accel, CRYPTO_ACCEL_NONE);
	T_EQ_INT(c.algs[3].accel, CRYPTO_ACCEL_CPU);
	T_EQ_INT(c.algs[3].internal, 1);
	T_EQ_INT(c.algs[4].accel, CRYPTO_ACCEL_CPU);
	T_EQ_INT(c.algs[5].accel, CRYPTO_ACCEL_HW);
	T_EQ_INT(c.algs[6].accel, CRYPTO_ACCEL_HW);
	T_EQ_INT(c.nhw, 4);
	T_EQ_INT(c.ncpu, 2);
	T_EQ_STR(crypto_accel_name(CRYPTO_ACCEL_CPU), "cpu");
	T_OK(crypto_parse("", 0, &c, NULL));
	T_EQ_INT(c.nalgs, 0);
	crypto_clear(&c);
}

/* The boxes: DSM 6's built-in CESA, AES-NI on DSM 7 and QTS. */
static void
t_crypto_read(void)
{
	struct crypto		c;
	struct probe_buf	b;
	size_t			i, naesni = 0;

	crypto_init(&c);
	probe_buf_init(&b);
	T_OK(crypto_read(t_root("dsm6-3.10-armhf"), &b, &c, NULL));
	T_EQ_INT(c.nalgs, 17);
	T_TRUE(c.nhw >= 10);
	T_EQ_STR(c.algs[6].driver, "mv-cbc-aes");
	T_EQ_INT(c.algs[6].accel, CRYPTO_ACCEL_HW);
	T_OK(crypto_read(t_root("dsm7-4.4-x86_64"), &b, &c, NULL));
	T_EQ_INT(c.nalgs, 6);
	T_EQ_INT(c.nhw, 0);
	for (i = 0; i < c.nalgs; i++)
		if (strcmp(c.algs[i].driver, "cbc-aes-aesni") == 0)
			naesni += c.algs[i].accel == CRYPTO_ACCEL_CPU;
	T_EQ_INT(naesni, 1);
	T_ERRNO(crypto_read(t_root("empty"), &b, &c, NULL), ENOENT);
	crypto_clear(&c);
	probe_buf_free(&b);
}

/* nfsd: the procfs fixture's shape, a 3.x histogram and bad lines. */
static void
t_nfsd(void)
{
	static const char text[] =
	    "rc 0 6 18622\n"
	    "fh 0 0 0 0 0\n"
	    "io 157286400 0\n"
	    "th 8 4 10.100 2.000 0.000 0.000 0.000 0.000 0.000 0.000 0.000 1.500\n"
	    "ra 32 0 0 0 0 0 0 0 0 0 0 0\n"
	    "net 18628 0 18628 6\n"
	    "rpc 18628 0 0 0 0\n"
	    "proc2 18 2 69 0 0 4410 0 0 0 0 0 0 0 0 0 0 0 99 2\n"
	    "proc3 22 2 112 0 2719 111 0 0 0 0 0 0 0 0 0 0 0 27 216 0 2 1 0\n"
	    "proc4 2 2 10853\n"
	    "proc4ops 72 0 0 0 1098 2 0 0 0 0 8179 5896 0 0 0 0 5900\n"
	    "garbage x y\n";
	struct nfsd		nf;
	struct probe_buf	b;

	T_OK(nfsd_parse(text, sizeof text - 1, &nf, NULL));
	T_EQ_U64(nf.rc_misses, 6);
	T_EQ_U64(nf.rc_nocache, 18622);
	T_EQ_U64(nf.io_read, 157286400);
	T_EQ_U64(nf.th_threads, 8);
	T_EQ_U64(nf.th_fullcnt, 4);
	T_EQ_INT(nf.th_nhist, 10);
	T_NEAR(nf.th_hist[0], 10.1, 1e-9);
	T_EQ_U64(nf.net_tcpconn, 6);
	T_EQ_INT(nf.proc2.declared, 18);
	T_EQ_INT(nf.proc3.n, 22);
	T_EQ_U64(nf.proc3.v[NFSD3_GETATTR], 112);
	T_EQ_U64(nf.proc3.v[NFSD3_LOOKUP], 2719);
	T_EQ_U64(nf.proc3.v[NFSD3_READDIRPLUS], 216);
	T_EQ_U64(nf.proc3.v[NFSD3_READDIR], 27);
	T_EQ_INT(nf.proc4ops.declared, 72);
	T_EQ_INT(nf.proc4ops.n, 16);	/* fewer counts than declared */
	T_EQ_U64(nf.proc4ops.v[NFSD4_OP_GETATTR], 8179);
	T_ERRNO(nfsd_parse("", 0, &nf, NULL), EINVAL);
	T_ERRNO(nfsd_parse("rc x\nio 1 2 3 y\n", 16, &nf, NULL), EINVAL);
	/* The histogram stops at a number that is not finite. */
	T_OK(nfsd_parse("rc 0 0 0\nth 8 0 1.5 1e999 2.0\n", 30, &nf, NULL));
	T_EQ_INT(nf.th_nhist, 1);

	probe_buf_init(&b);
	T_OK(nfsd_read(t_root("dsm6-3.10-armhf"), &b, &nf, NULL));
	T_EQ_U64(nf.io_read, 241462149120ULL);
	T_EQ_U64(nf.io_write, 119446437888ULL);
	T_EQ_U64(nf.rc_nocache, 2753554);
	T_EQ_U64(nf.proc3.v[NFSD3_READ], 1842210);
	T_EQ_U64(nf.proc3.v[NFSD3_WRITE], 911304);
	T_EQ_U64(nf.proc3.v[NFSD3_COMMIT], 18226);
	T_EQ_INT(nf.proc4ops.n, 59);
	T_OK(nfsd_read(t_root("qts5-5.10-x86_64"), &b, &nf, NULL));
	T_EQ_U64(nf.proc3.v[NFSD3_READ], 9120334);
	T_EQ_U64(nf.io_read, 1195420418048ULL);
	T_OK(nfsd_read(t_root("dsm7-4.4-x86_64"), &b, &nf, NULL));
	T_EQ_U64(nf.proc3.v[NFSD3_WRITE], 9123411);
	T_ERRNO(nfsd_read(t_root("empty"), &b, &nf, NULL), ENOENT);
	probe_buf_free(&b);
}

int
main(void)
{
	t_crypto_parse();
	t_crypto_read();
	t_nfsd();
	(void)t_skip;
	return (t_done());
}
