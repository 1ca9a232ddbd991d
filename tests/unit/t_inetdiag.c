/*
 * t_inetdiag.c: real sock_diag answers parsed to exact values, cut to
 * older kernels' tcp_info and broken; then live loopback connections found
 * with sock_diag, their byte counts exact.
 */
#include "config.h"

#include <sys/types.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include <arpa/inet.h>
#include <netinet/in.h>

#include <linux/inet_diag.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/sock_diag.h>
#include <linux/tcp.h>

#include "test.h"
#include "inetdiag.h"
#include "inetdiag_capture.h"

#define T_ALL_HAVE	(INETDIAG_HAVE_RTT | INETDIAG_HAVE_BYTES | \
	INETDIAG_HAVE_DELIVERY | INETDIAG_HAVE_BUSY | INETDIAG_HAVE_SNDWND)

/* Where the capture's messages are: 408 bytes each, then NLMSG_DONE. */
#define T_MSG_LEN	408
#define T_DONE_OFF	(3 * T_MSG_LEN)

#define T_SENT		300007		/* live: client to server */
#define T_BACK		123457		/* live: server to client */

static unsigned char	t_bytes[65536];

/* The connection of d with local port lport, or NULL. */
static const struct inetdiag_conn *
t_find(const struct inetdiag *d, unsigned lport)
{
	size_t	i;

	for (i = 0; i < d->n; i++)
		if (d->v[i].lport == lport)
			return (&d->v[i]);
	return (NULL);
}

/* The capture's sockets, every field; the filters over them. */
static void
t_capture(void)
{
	struct inetdiag			 d;
	const struct inetdiag_conn	*c;
	unsigned char			*odd;
	unsigned			 port = 59327, cport = 49858;
	unsigned			 port6 = 47295, ports[2];
	int				 done;

	memset(&d, 0, sizeof d);
	T_OK(inetdiag_parse(&d, inetdiag_v4, sizeof inetdiag_v4, &port, 1,
	    "127.0.0.1", &done));
	T_TRUE(done);
	T_EQ_U64(d.n, 1);
	T_EQ_U64(d.info_len_seen, 280);
	if ((c = t_find(&d, port)) == NULL)
		T_TRUE(c != NULL);
	else {
		T_EQ_INT(c->family, AF_INET);
		T_EQ_STR(c->local, "127.0.0.1");
		T_EQ_INT(c->lport, 59327);
		T_EQ_STR(c->remote, "127.0.0.1");
		T_EQ_INT(c->rport, 49858);
		T_EQ_U64(c->inode, 64002);
		T_EQ_U64(c->uid, 0);
		T_EQ_INT(c->state, INETDIAG_ESTABLISHED);
		T_EQ_U64(c->info_len, 280);
		T_EQ_INT(c->have, T_ALL_HAVE);
		T_EQ_U64(c->rtt_us, 18);
		T_EQ_U64(c->rttvar_us, 9);
		T_EQ_U64(c->snd_cwnd, 14);
		T_EQ_U64(c->rcv_space, 65483);
		T_EQ_U64(c->total_retrans, 0);
		T_EQ_U64(c->bytes_acked, 123457);
		T_EQ_U64(c->bytes_received, 300007);
		T_EQ_U64(c->delivery_rate, 14284800000ULL);
		/* Loopback took less than a jiffy: no busy time. */
		T_EQ_U64(c->busy_time_us, 0);
		T_EQ_U64(c->rwnd_limited_us, 0);
		T_EQ_U64(c->sndbuf_limited_us, 0);
		T_EQ_U64(c->snd_wnd, 95232);
	}

	/* The client's end: its SYN is one more acknowledged. */
	d.n = 0;
	T_OK(inetdiag_parse(&d, inetdiag_v4, sizeof inetdiag_v4, &cport, 1,
	    "::ffff:127.0.0.1", &done));
	T_EQ_U64(d.n, 1);
	if (d.n == 1) {
		T_EQ_U64(d.v[0].inode, 64001);
		T_EQ_U64(d.v[0].bytes_acked, T_SENT + 1);
		T_EQ_U64(d.v[0].bytes_received, T_BACK);
		T_EQ_U64(d.v[0].rtt_us, 34);
	}

	/* Any port: all three; the IPv6 listener's port is remote here. */
	d.n = 0;
	T_OK(inetdiag_parse(&d, inetdiag_v4, sizeof inetdiag_v4, NULL, 0,
	    NULL, &done));
	T_EQ_U64(d.n, 3);
	d.n = 0;
	T_OK(inetdiag_parse(&d, inetdiag_v4, sizeof inetdiag_v4, &port6, 1,
	    NULL, &done));
	T_EQ_U64(d.n, 0);
	ports[0] = 445;
	ports[1] = port;
	T_OK(inetdiag_parse(&d, inetdiag_v4, sizeof inetdiag_v4, ports, 2,
	    "10.9.9.9", &done));
	T_TRUE(done);
	T_EQ_U64(d.n, 0);
	T_ERRNO(inetdiag_parse(&d, inetdiag_v4, sizeof inetdiag_v4, ports, 2,
	    "127.0.0.300", &done), EINVAL);
	T_TRUE(d.errstr != NULL);

	/* IPv6: the IPv4 client, IPv4-mapped on the listener's socket. */
	d.n = 0;
	T_OK(inetdiag_parse(&d, inetdiag_v6, sizeof inetdiag_v6, &port6, 1,
	    "127.0.0.1", &done));
	T_TRUE(done);
	T_EQ_U64(d.n, 1);
	if (d.n == 1) {
		T_EQ_INT(d.v[0].family, AF_INET6);
		T_EQ_STR(d.v[0].local, "127.0.0.1");
		T_EQ_STR(d.v[0].remote, "127.0.0.1");
		T_EQ_INT(d.v[0].rport, 57684);
		T_EQ_U64(d.v[0].inode, 64007);
		T_EQ_U64(d.v[0].bytes_received, 1000);
		T_EQ_U64(d.v[0].bytes_acked, 2000);
		T_EQ_U64(d.v[0].snd_wnd, 91136);
	}
	d.n = 0;
	T_OK(inetdiag_parse(&d, inetdiag_v6, sizeof inetdiag_v6, &port6, 1,
	    "::ffff:127.0.0.1", &done));
	T_EQ_U64(d.n, 1);
	d.n = 0;
	T_OK(inetdiag_parse(&d, inetdiag_v6, sizeof inetdiag_v6, &port6, 1,
	    "::1", &done));
	T_EQ_U64(d.n, 1);
	if (d.n == 1) {
		T_EQ_STR(d.v[0].local, "::1");
		T_EQ_STR(d.v[0].remote, "::1");
		T_EQ_INT(d.v[0].rport, 32966);
		T_EQ_U64(d.v[0].inode, 64005);
		T_EQ_U64(d.v[0].bytes_received, 65536);
		T_EQ_U64(d.v[0].bytes_acked, 4096);
		T_EQ_U64(d.v[0].rtt_us, 11);
	}
	d.n = 0;
	T_OK(inetdiag_parse(&d, inetdiag_v6, sizeof inetdiag_v6, &port6, 1,
	    NULL, &done));
	T_EQ_U64(d.n, 2);

	/* A dump in two reads; and at an odd address. */
	d.n = 0;
	T_OK(inetdiag_parse(&d, inetdiag_v4, 2 * T_MSG_LEN, NULL, 0, NULL,
	    &done));
	T_TRUE(!done);
	T_EQ_U64(d.n, 2);
	T_OK(inetdiag_parse(&d, inetdiag_v4 + 2 * T_MSG_LEN,
	    sizeof inetdiag_v4 - 2 * T_MSG_LEN, NULL, 0, NULL, &done));
	T_TRUE(done);
	T_EQ_U64(d.n, 3);
	if ((odd = malloc(sizeof inetdiag_v4 + 1)) != NULL) {
		memcpy(odd + 1, inetdiag_v4, sizeof inetdiag_v4);
		d.n = 0;
		T_OK(inetdiag_parse(&d, odd + 1, sizeof inetdiag_v4, &port, 1,
		    NULL, &done));
		T_EQ_U64(d.n, 1);
		T_EQ_U64(d.n == 1 ? d.v[0].bytes_received : 0, T_SENT);
		free(odd);
	}
	inetdiag_clear(&d);
	T_TRUE(d.v == NULL && d.n == 0);
	inetdiag_clear(NULL);
}

/*
 * Copy the capture's listener-side IPv4 message into out with its
 * INET_DIAG_INFO cut to info bytes (-1: without the attribute), then an
 * NLMSG_DONE; return the length.  Lengths are fixed as a kernel with that
 * struct tcp_info would have sent them.
 */
static size_t
t_cut(unsigned char *out, long info)
{
	const unsigned char	*m = inetdiag_v4 + 2 * T_MSG_LEN;
	struct nlmsghdr		 h;
	struct nlattr		 a, cut;
	size_t			 off, o;

	memcpy(&h, m, sizeof h);
	o = NLMSG_LENGTH(sizeof(struct inet_diag_msg));
	memcpy(out, m, o);
	for (off = o; off < h.nlmsg_len; off += NLA_ALIGN(a.nla_len)) {
		memcpy(&a, m + off, sizeof a);
		if (a.nla_type != INET_DIAG_INFO) {
			memcpy(out + o, m + off, NLA_ALIGN(a.nla_len));
			o += NLA_ALIGN(a.nla_len);
			continue;
		}
		if (info < 0)
			continue;
		cut = a;
		cut.nla_len = (uint16_t)(NLA_HDRLEN + info);
		memcpy(out + o, &cut, sizeof cut);
		memcpy(out + o + NLA_HDRLEN, m + off + NLA_HDRLEN,
		    (size_t)info);
		o += NLA_ALIGN(cut.nla_len);
	}
	h.nlmsg_len = (uint32_t)o;
	memcpy(out, &h, sizeof h);
	memcpy(out + o, inetdiag_v4 + T_DONE_OFF, 20);
	return (o + 20);
}

/* tcp_info as each kernel's struct ended; the have bits follow. */
static void
t_kernels(void)
{
	static const struct {
		long		len;
		unsigned	have;
	} cut[] = {
		{ 280, T_ALL_HAVE },
		{ 232, T_ALL_HAVE },		/* 5.4: snd_wnd */
		{ 231, T_ALL_HAVE & ~INETDIAG_HAVE_SNDWND },
		{ 192, T_ALL_HAVE & ~INETDIAG_HAVE_SNDWND },	/* 4.10 */
		{ 191, INETDIAG_HAVE_RTT | INETDIAG_HAVE_BYTES |
		    INETDIAG_HAVE_DELIVERY },
		{ 168, INETDIAG_HAVE_RTT | INETDIAG_HAVE_BYTES |
		    INETDIAG_HAVE_DELIVERY },			/* 4.9 */
		{ 160, INETDIAG_HAVE_RTT | INETDIAG_HAVE_BYTES }, /* 4.6 */
		{ 136, INETDIAG_HAVE_RTT | INETDIAG_HAVE_BYTES }, /* 4.1 */
		{ 135, INETDIAG_HAVE_RTT },
		{ 120, INETDIAG_HAVE_RTT },			/* 3.15 */
		{ 104, INETDIAG_HAVE_RTT },			/* 3.10 */
		{ 103, 0 },
		{ 0, 0 },
	};
	unsigned char		 buf[sizeof inetdiag_v4];
	struct inetdiag		 d;
	const struct inetdiag_conn *c;
	unsigned		 port = 59327;
	size_t			 i, len;
	int			 done, bad = 0;

	/* 3.10's struct tcp_info is this one's up to tcpi_total_retrans. */
	T_EQ_U64(offsetof(struct tcp_info, tcpi_total_retrans) + 4,
	    INETDIAG_INFO_LEN_310);
	memset(&d, 0, sizeof d);
	for (i = 0; i < NP_NITEMS(cut); i++) {
		d.n = 0;
		len = t_cut(buf, cut[i].len);
		if (inetdiag_parse(&d, buf, len, &port, 1, NULL, &done) == -1 ||
		    !done || d.n != 1 || d.v[0].have != cut[i].have ||
		    d.v[0].info_len != (size_t)cut[i].len) {
			printf("# cut to %ld: have 0x%x\n", cut[i].len,
			    d.n == 1 ? d.v[0].have : 0);
			bad++;
		}
	}
	T_EQ_INT(bad, 0);

	/* 3.10: what it has is there, the rest left zero. */
	d.n = 0;
	d.info_len_seen = 0;
	len = t_cut(buf, INETDIAG_INFO_LEN_310);
	T_OK(inetdiag_parse(&d, buf, len, &port, 1, "127.0.0.1", &done));
	T_EQ_U64(d.n, 1);
	if ((c = t_find(&d, port)) != NULL) {
		T_EQ_U64(c->info_len, 104);
		T_EQ_U64(d.info_len_seen, 104);
		T_EQ_INT(c->have, INETDIAG_HAVE_RTT);
		T_EQ_U64(c->rtt_us, 18);
		T_EQ_U64(c->rttvar_us, 9);
		T_EQ_U64(c->snd_cwnd, 14);
		T_EQ_U64(c->rcv_space, 65483);
		T_EQ_U64(c->bytes_acked, 0);
		T_EQ_U64(c->bytes_received, 0);
		T_EQ_U64(c->delivery_rate, 0);
		T_EQ_U64(c->snd_wnd, 0);
		T_EQ_U64(c->inode, 64002);
	}
	/* 4.1: the byte counts, not the delivery rate. */
	d.n = 0;
	len = t_cut(buf, 136);
	T_OK(inetdiag_parse(&d, buf, len, &port, 1, NULL, &done));
	if ((c = t_find(&d, port)) != NULL) {
		T_EQ_U64(c->bytes_acked, T_BACK);
		T_EQ_U64(c->bytes_received, T_SENT);
		T_EQ_U64(c->delivery_rate, 0);
	}
	/* No INET_DIAG_INFO at all (a time-wait socket has none). */
	d.n = 0;
	d.info_len_seen = 0;
	len = t_cut(buf, -1);
	T_OK(inetdiag_parse(&d, buf, len, &port, 1, NULL, &done));
	T_EQ_U64(d.n, 1);
	T_EQ_INT(d.n == 1 ? d.v[0].have : 99, 0);
	T_EQ_U64(d.info_len_seen, 0);
	inetdiag_clear(&d);
}

/* Parse len bytes from a buffer of exactly that size (ASan sees past it). */
static int
t_parse_exact(struct inetdiag *d, const unsigned char *p, size_t len,
    int *done)
{
	unsigned char	*b;
	int		 rc;

	if ((b = malloc(len > 0 ? len : 1)) == NULL)
		return (-2);
	memcpy(b, p, len);
	rc = inetdiag_parse(d, b, len, NULL, 0, NULL, done);
	free(b);
	return (rc);
}

/* Cut, broken and mutated buffers: -1 EINVAL, never a read past the end. */
static void
t_garbage(void)
{
	unsigned char	 buf[sizeof inetdiag_v4];
	struct inetdiag	 d;
	struct nlmsghdr	 h;
	struct nlattr	 a;
	unsigned	 seed = 12345;
	size_t		 len, whole = 0, nerr = 0, other = 0, off;
	int		 done, rc, err, i, k;

	memset(&d, 0, sizeof d);
	/* Every prefix: whole messages parse, the rest are EINVAL. */
	for (len = 0; len <= sizeof inetdiag_v4; len++) {
		d.n = 0;
		errno = 0;
		rc = t_parse_exact(&d, inetdiag_v4, len, &done);
		if (rc == 0)
			whole++;
		else if (rc == -1 && errno == EINVAL)
			nerr++;
		else
			other++;
	}
	T_EQ_U64(whole, 5);		/* 0, 408, 816, 1224, 1244 bytes */
	T_EQ_U64(nerr, sizeof inetdiag_v4 + 1 - 5);
	T_EQ_U64(other, 0);

	/* A message longer than the buffer; shorter than its header. */
	memcpy(buf, inetdiag_v4, sizeof buf);
	memcpy(&h, buf, sizeof h);
	h.nlmsg_len = 60000;
	memcpy(buf, &h, sizeof h);
	T_ERRNO(inetdiag_parse(&d, buf, sizeof buf, NULL, 0, NULL, &done),
	    EINVAL);
	T_TRUE(d.errstr != NULL);
	h.nlmsg_len = 8;
	memcpy(buf, &h, sizeof h);
	T_ERRNO(inetdiag_parse(&d, buf, sizeof buf, NULL, 0, NULL, &done),
	    EINVAL);
	/* A socket message too short for an inet_diag_msg. */
	h.nlmsg_len = NLMSG_HDRLEN + 40;
	memcpy(buf, &h, sizeof h);
	T_ERRNO(inetdiag_parse(&d, buf, sizeof buf, NULL, 0, NULL, &done),
	    EINVAL);

	/* An attribute running past its message; one shorter than 4. */
	memcpy(buf, inetdiag_v4, sizeof buf);
	off = NLMSG_LENGTH(sizeof(struct inet_diag_msg));
	memcpy(&a, buf + off, sizeof a);
	a.nla_len = 60000;
	memcpy(buf + off, &a, sizeof a);
	T_ERRNO(inetdiag_parse(&d, buf, sizeof buf, NULL, 0, NULL, &done),
	    EINVAL);
	a.nla_len = 3;
	memcpy(buf + off, &a, sizeof a);
	T_ERRNO(inetdiag_parse(&d, buf, sizeof buf, NULL, 0, NULL, &done),
	    EINVAL);

	/* NLMSG_ERROR: its errno; cut short; 0 is an acknowledgement. */
	memset(&h, 0, sizeof h);
	h.nlmsg_type = NLMSG_ERROR;
	h.nlmsg_len = NLMSG_LENGTH(sizeof(struct nlmsgerr));
	memset(buf, 0, sizeof buf);
	memcpy(buf, &h, sizeof h);
	err = -EPERM;
	memcpy(buf + NLMSG_HDRLEN, &err, sizeof err);
	T_ERRNO(inetdiag_parse(&d, buf, h.nlmsg_len, NULL, 0, NULL, &done),
	    EPERM);
	T_TRUE(d.errstr != NULL);
	h.nlmsg_len = NLMSG_HDRLEN + 2;
	memcpy(buf, &h, sizeof h);
	T_ERRNO(inetdiag_parse(&d, buf, h.nlmsg_len, NULL, 0, NULL, &done),
	    EINVAL);
	h.nlmsg_len = NLMSG_LENGTH(sizeof(struct nlmsgerr));
	memcpy(buf, &h, sizeof h);
	err = 0;
	memcpy(buf + NLMSG_HDRLEN, &err, sizeof err);
	memcpy(buf + h.nlmsg_len, inetdiag_v4 + T_DONE_OFF, 20);
	d.n = 0;
	T_OK(inetdiag_parse(&d, buf, h.nlmsg_len + 20, NULL, 0, NULL,
	    &done));
	T_TRUE(done && d.n == 0);
	/* A dump that failed in the kernel says so in its NLMSG_DONE. */
	memcpy(buf, inetdiag_v4 + T_DONE_OFF, 20);
	err = -ENOBUFS;
	memcpy(buf + NLMSG_HDRLEN, &err, sizeof err);
	T_ERRNO(inetdiag_parse(&d, buf, 20, NULL, 0, NULL, &done), ENOBUFS);

	/* Fixed-seed mutations of both captures, one to four bytes each. */
	other = 0;
	for (i = 0; i < 4000; i++) {
		memcpy(buf, i % 2 ? inetdiag_v6 : inetdiag_v4, sizeof buf);
		for (k = 0; k < 1 + i % 4; k++) {
			seed = seed * 1103515245 + 12345;
			/* Mostly the headers, where a byte changes the walk. */
			off = (seed >> 8) % (i % 3 ? 96 : sizeof buf);
			if (i % 3 && (seed & 1))
				off += (seed >> 20) % 3 * T_MSG_LEN;
			buf[off] = (unsigned char)(seed >> 16);
		}
		d.n = 0;
		errno = 0;
		rc = t_parse_exact(&d, buf, sizeof buf, &done);
		if (rc == -2 || (rc == 0 && d.n > 3) ||
		    (rc == -1 && errno == 0))
			other++;
	}
	T_EQ_U64(other, 0);
	inetdiag_clear(&d);
}

/* Wait until fd has nothing unacknowledged and is in state; 0 when so. */
static int
t_settle(int fd, int state)
{
	struct tcp_info	ti;
	socklen_t	len;
	int		i;

	for (i = 0; i < 5000; i++) {
		len = sizeof ti;
		if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &ti, &len) == -1)
			return (-1);
		if (ti.tcpi_unacked == 0 && ti.tcpi_notsent_bytes == 0 &&
		    ti.tcpi_state == state)
			return (0);
		usleep(1000);
	}
	return (-1);
}

/* Write all of n bytes on out while reading them on in; -1 on failure. */
static int
t_xfer(int out, int in, size_t n)
{
	size_t	got;
	ssize_t	k, r;

	while (n > 0) {
		k = send(out, t_bytes, n < sizeof t_bytes ? n :
		    sizeof t_bytes, 0);
		if (k <= 0)
			return (-1);
		for (got = 0; got < (size_t)k; got += (size_t)r)
			if ((r = recv(in, t_bytes, (size_t)k - got, 0)) <= 0)
				return (-1);
		n -= (size_t)k;
	}
	return (0);
}

/* The port a socket is bound to. */
static unsigned
t_port(int fd)
{
	struct sockaddr_storage	ss;
	socklen_t		len = sizeof ss;

	if (getsockname(fd, (struct sockaddr *)&ss, &len) == -1)
		return (0);
	if (ss.ss_family == AF_INET)
		return (ntohs(((struct sockaddr_in *)&ss)->sin_port));
	return (ntohs(((struct sockaddr_in6 *)&ss)->sin6_port));
}

/* A listener on 127.0.0.1 (v6 0) or on :: for both families; -1. */
static int
t_listen(int v6)
{
	struct sockaddr_in	sin;
	struct sockaddr_in6	sin6;
	int			fd, off = 0;

	if ((fd = socket(v6 ? AF_INET6 : AF_INET, SOCK_STREAM, 0)) == -1)
		return (-1);
	if (v6) {
		memset(&sin6, 0, sizeof sin6);
		sin6.sin6_family = AF_INET6;
		sin6.sin6_addr = in6addr_any;
		if (setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &off,
		    sizeof off) == -1 ||
		    bind(fd, (struct sockaddr *)&sin6, sizeof sin6) == -1)
			goto fail;
	} else {
		memset(&sin, 0, sizeof sin);
		sin.sin_family = AF_INET;
		sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		if (bind(fd, (struct sockaddr *)&sin, sizeof sin) == -1)
			goto fail;
	}
	if (listen(fd, 4) == -1)
		goto fail;
	return (fd);
fail:
	close(fd);
	return (-1);
}

/* Connect to port on 127.0.0.1 (v6 0) or ::1; -1. */
static int
t_connect(int v6, unsigned port)
{
	struct sockaddr_in	sin;
	struct sockaddr_in6	sin6;
	int			fd, rc;

	if ((fd = socket(v6 ? AF_INET6 : AF_INET, SOCK_STREAM, 0)) == -1)
		return (-1);
	if (v6) {
		memset(&sin6, 0, sizeof sin6);
		sin6.sin6_family = AF_INET6;
		sin6.sin6_addr = in6addr_loopback;
		sin6.sin6_port = htons(port);
		rc = connect(fd, (struct sockaddr *)&sin6, sizeof sin6);
	} else {
		memset(&sin, 0, sizeof sin);
		sin.sin_family = AF_INET;
		sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		sin.sin_port = htons(port);
		rc = connect(fd, (struct sockaddr *)&sin, sizeof sin);
	}
	if (rc == -1) {
		close(fd);
		return (-1);
	}
	return (fd);
}

/* The inode of a descriptor's socket. */
static uint64_t
t_inode(int fd)
{
	struct stat	st;

	return (fstat(fd, &st) == -1 ? 0 : (uint64_t)st.st_ino);
}

/*
 * IPv4 on loopback: bytes both ways, then the client's FIN.  The kernel
 * counts sequence numbers: the client's bytes_acked has its SYN (+1),
 * later its FIN (+2); the server's bytes_received the FIN (+1).
 */
static void
t_live4(void)
{
	struct inetdiag			 d;
	const struct inetdiag_conn	*c;
	unsigned			 port, cport, other;
	int				 ls, ls2, cs, ss;

	memset(&d, 0, sizeof d);
	if ((ls = t_listen(0)) == -1 || (ls2 = t_listen(0)) == -1 ||
	    (cs = t_connect(0, t_port(ls))) == -1 ||
	    (ss = accept(ls, NULL, NULL)) == -1) {
		printf("Bail out! loopback: %s\n", strerror(errno));
		exit(1);
	}
	port = t_port(ls);
	cport = t_port(cs);
	other = t_port(ls2);	/* a listening port: no connection has it */
	T_OK(t_xfer(cs, ss, T_SENT));
	T_OK(t_xfer(ss, cs, T_BACK));
	T_OK(t_settle(cs, INETDIAG_ESTABLISHED));
	T_OK(t_settle(ss, INETDIAG_ESTABLISHED));

	T_OK(inetdiag_read(&d, &port, 1, "127.0.0.1"));
	T_EQ_U64(d.n, 1);
	if ((c = t_find(&d, port)) == NULL)
		T_TRUE(c != NULL);
	else {
		printf("# this kernel's tcp_info: %zu bytes, have 0x%x, "
		    "rtt %u us, cwnd %u\n", c->info_len, c->have, c->rtt_us,
		    c->snd_cwnd);
		T_EQ_INT(c->family, AF_INET);
		T_EQ_STR(c->local, "127.0.0.1");
		T_EQ_STR(c->remote, "127.0.0.1");
		T_EQ_INT(c->rport, cport);
		T_TRUE(c->inode != 0);
		T_EQ_U64(c->inode, t_inode(ss));
		T_EQ_U64(c->uid, geteuid());
		T_EQ_INT(c->state, INETDIAG_ESTABLISHED);
		T_TRUE(c->have & INETDIAG_HAVE_RTT);
		T_TRUE(c->rtt_us > 0);
		T_EQ_U64(d.info_len_seen, c->info_len);
		if (c->have & INETDIAG_HAVE_BYTES) {
			T_EQ_U64(c->bytes_received, T_SENT);
			T_EQ_U64(c->bytes_acked, T_BACK);
		} else
			t_skip("kernel before 4.1: no byte counts");
	}
	T_OK(inetdiag_read(&d, &cport, 1, "127.0.0.1"));
	T_EQ_U64(d.n, 1);
	if ((c = t_find(&d, cport)) != NULL &&
	    (c->have & INETDIAG_HAVE_BYTES)) {
		T_EQ_U64(c->inode, t_inode(cs));
		T_EQ_U64(c->bytes_acked, T_SENT + 1);
		T_EQ_U64(c->bytes_received, T_BACK);
	}

	/* The filters: mapped, another peer, another port, any port. */
	T_OK(inetdiag_read(&d, &port, 1, "::ffff:127.0.0.1"));
	T_EQ_U64(d.n, 1);
	T_OK(inetdiag_read(&d, &port, 1, "10.9.9.9"));
	T_EQ_U64(d.n, 0);
	T_OK(inetdiag_read(&d, &port, 1, "::1"));
	T_EQ_U64(d.n, 0);
	T_OK(inetdiag_read(&d, &other, 1, NULL));
	T_EQ_U64(d.n, 0);
	T_OK(inetdiag_read(&d, NULL, 0, "127.0.0.1"));
	T_TRUE(d.n >= 2 && t_find(&d, port) != NULL &&
	    t_find(&d, cport) != NULL);
	T_ERRNO(inetdiag_read(&d, &port, 1, "not an address"), EINVAL);
	T_EQ_U64(d.n, 0);

	/* The client's FIN: CLOSE_WAIT and FIN_WAIT2, one more each. */
	T_OK(shutdown(cs, SHUT_WR));
	T_OK(t_settle(cs, INETDIAG_FIN_WAIT2));
	T_OK(t_settle(ss, INETDIAG_CLOSE_WAIT));
	T_OK(inetdiag_read(&d, &port, 1, "127.0.0.1"));
	T_EQ_U64(d.n, 1);
	if ((c = t_find(&d, port)) != NULL &&
	    (c->have & INETDIAG_HAVE_BYTES)) {
		T_EQ_INT(c->state, INETDIAG_CLOSE_WAIT);
		T_EQ_U64(c->bytes_received, T_SENT + 1);
		T_EQ_U64(c->bytes_acked, T_BACK);
	}
	T_OK(inetdiag_read(&d, &cport, 1, "127.0.0.1"));
	T_EQ_U64(d.n, 1);
	if ((c = t_find(&d, cport)) != NULL &&
	    (c->have & INETDIAG_HAVE_BYTES)) {
		T_EQ_INT(c->state, INETDIAG_FIN_WAIT2);
		T_EQ_U64(c->bytes_acked, T_SENT + 2);
	}
	close(cs);
	close(ss);
	close(ls);
	close(ls2);
	inetdiag_clear(&d);
}

/* A listener on :: with an IPv6 client and an IPv4 one (mapped). */
static void
t_live6(void)
{
	struct inetdiag			 d;
	const struct inetdiag_conn	*c;
	unsigned			 port;
	int				 ls, c6, s6, c4, s4;

	memset(&d, 0, sizeof d);
	if ((ls = t_listen(1)) == -1 ||
	    (c6 = t_connect(1, t_port(ls))) == -1) {
		t_skip("no IPv6 loopback");
		if (ls != -1)
			close(ls);
		return;
	}
	port = t_port(ls);
	if ((s6 = accept(ls, NULL, NULL)) == -1 ||
	    (c4 = t_connect(0, port)) == -1 ||
	    (s4 = accept(ls, NULL, NULL)) == -1) {
		printf("Bail out! loopback: %s\n", strerror(errno));
		exit(1);
	}
	T_OK(t_xfer(c6, s6, 65536));
	T_OK(t_xfer(s4, c4, 2000));
	T_OK(t_settle(s6, INETDIAG_ESTABLISHED));
	T_OK(t_settle(s4, INETDIAG_ESTABLISHED));

	T_OK(inetdiag_read(&d, &port, 1, "::1"));
	T_EQ_U64(d.n, 1);
	if ((c = t_find(&d, port)) != NULL) {
		T_EQ_INT(c->family, AF_INET6);
		T_EQ_STR(c->remote, "::1");
		T_EQ_INT(c->rport, t_port(c6));
		T_EQ_U64(c->inode, t_inode(s6));
		if (c->have & INETDIAG_HAVE_BYTES)
			T_EQ_U64(c->bytes_received, 65536);
	}
	T_OK(inetdiag_read(&d, &port, 1, "127.0.0.1"));
	T_EQ_U64(d.n, 1);
	if ((c = t_find(&d, port)) != NULL) {
		T_EQ_INT(c->family, AF_INET6);
		T_EQ_STR(c->local, "127.0.0.1");
		T_EQ_STR(c->remote, "127.0.0.1");
		T_EQ_INT(c->rport, t_port(c4));
		T_EQ_U64(c->inode, t_inode(s4));
		if (c->have & INETDIAG_HAVE_BYTES)
			T_EQ_U64(c->bytes_acked, 2000);
	}
	T_OK(inetdiag_read(&d, &port, 1, "::ffff:127.0.0.1"));
	T_EQ_U64(d.n, 1);
	T_OK(inetdiag_read(&d, &port, 1, NULL));
	T_EQ_U64(d.n, 2);
	T_OK(inetdiag_read(&d, &port, 1, "fe80::1"));
	T_EQ_U64(d.n, 0);
	close(c4);
	close(s4);
	close(c6);
	close(s6);
	close(ls);
	inetdiag_clear(&d);
}

int
main(void)
{
	size_t	i;

	for (i = 0; i < sizeof t_bytes; i++)
		t_bytes[i] = (unsigned char)(i * 2654435761U >> 24);
	t_capture();
	t_kernels();
	t_garbage();
	t_live4();
	t_live6();
	return (t_done());
}
