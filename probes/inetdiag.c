/*
 * inetdiag.c: a sock_diag dump of TCP sockets, with their tcp_info.
 */
#include "config.h"

#include <sys/types.h>
#include <sys/socket.h>
#include <sys/uio.h>

#include <arpa/inet.h>
#include <netinet/in.h>

#include <linux/inet_diag.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/sock_diag.h>
#include <linux/tcp.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "inetdiag.h"

/*
 * One recv(2) of a dump.  The kernel fills a dump's messages into buffers
 * as large as the largest read it has seen, but never above 32 KiB
 * (netlink_recvmsg), so this one never truncates.
 */
#define INETDIAG_BUF	32768

/* Bytes of struct tcp_info up to and including field f. */
#define INETDIAG_END(f)	(offsetof(struct tcp_info, f) + \
	sizeof ((struct tcp_info *)0)->f)

/* What to keep, decided once per call. */
struct inetdiag_filter {
	const unsigned	*ports;
	size_t		 nports;	/* 0: any port */
	int		 peer;		/* 1: compare with addr */
	int		 v4;		/* 1: an IPv4 peer may match */
	unsigned char	 addr[16];	/* IPv4 as IPv4-mapped IPv6 */
};

static const unsigned char inetdiag_mapped[12] = {
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff
};

/*
 * Fill c's tcp_info fields from the len bytes at p, the whole attribute.
 * A field counts only when the attribute holds all of it: an older kernel
 * sends a shorter struct, a newer one a longer one than these headers.
 */
static void
inetdiag_info(struct inetdiag_conn *c, const unsigned char *p, size_t len)
{
	struct tcp_info	ti;

	memset(&ti, 0, sizeof ti);
	memcpy(&ti, p, len < sizeof ti ? len : sizeof ti);
	c->info_len = len;
	c->have = 0;
	if (len >= INETDIAG_END(tcpi_total_retrans)) {
		c->have |= INETDIAG_HAVE_RTT;
		c->rtt_us = ti.tcpi_rtt;
		c->rttvar_us = ti.tcpi_rttvar;
		c->snd_cwnd = ti.tcpi_snd_cwnd;
		c->rcv_space = ti.tcpi_rcv_space;
		c->total_retrans = ti.tcpi_total_retrans;
	}
	if (len >= INETDIAG_END(tcpi_bytes_received)) {
		c->have |= INETDIAG_HAVE_BYTES;
		c->bytes_acked = ti.tcpi_bytes_acked;
		c->bytes_received = ti.tcpi_bytes_received;
	}
	if (len >= INETDIAG_END(tcpi_delivery_rate)) {
		c->have |= INETDIAG_HAVE_DELIVERY;
		c->delivery_rate = ti.tcpi_delivery_rate;
	}
	if (len >= INETDIAG_END(tcpi_sndbuf_limited)) {
		c->have |= INETDIAG_HAVE_BUSY;
		c->busy_time_us = ti.tcpi_busy_time;
		c->rwnd_limited_us = ti.tcpi_rwnd_limited;
		c->sndbuf_limited_us = ti.tcpi_sndbuf_limited;
	}
	if (len >= INETDIAG_END(tcpi_snd_wnd)) {
		c->have |= INETDIAG_HAVE_SNDWND;
		c->snd_wnd = ti.tcpi_snd_wnd;
	}
}

/* An address of family as 16 bytes, IPv4 as IPv4-mapped IPv6. */
static void
inetdiag_canon(int family, const uint32_t *a, unsigned char *out)
{
	if (family == AF_INET) {
		memcpy(out, inetdiag_mapped, sizeof inetdiag_mapped);
		memcpy(out + 12, a, 4);
	} else
		memcpy(out, a, 16);
}

/* The text of a canonical address: an IPv4-mapped one as IPv4. */
static void
inetdiag_text(const unsigned char *a, char *out, size_t outsz)
{
	const char	*s;

	if (memcmp(a, inetdiag_mapped, sizeof inetdiag_mapped) == 0)
		s = inet_ntop(AF_INET, a + 12, out, (socklen_t)outsz);
	else
		s = inet_ntop(AF_INET6, a, out, (socklen_t)outsz);
	if (s == NULL)
		out[0] = '\0';
}

/* Decide the filter; -1 EINVAL when peer is not an address. */
static int
inetdiag_filter(struct inetdiag_filter *f, const unsigned *ports,
    size_t nports, const char *peer)
{
	uint32_t	v4;

	memset(f, 0, sizeof *f);
	f->ports = ports;
	f->nports = ports != NULL ? nports : 0;
	f->v4 = 1;
	if (peer == NULL)
		return (0);
	f->peer = 1;
	if (inet_pton(AF_INET, peer, &v4) == 1)
		inetdiag_canon(AF_INET, &v4, f->addr);
	else if (inet_pton(AF_INET6, peer, f->addr) == 1)
		f->v4 = memcmp(f->addr, inetdiag_mapped,
		    sizeof inetdiag_mapped) == 0;
	else {
		errno = EINVAL;
		return (-1);
	}
	return (0);
}

/* Append c to d; -1 ENOMEM. */
static int
inetdiag_add(struct inetdiag *d, const struct inetdiag_conn *c)
{
	struct inetdiag_conn	*v;
	size_t			 ncap;

	if (d->n == d->cap) {
		ncap = d->cap == 0 ? 8 : d->cap * 2;
		if ((v = reallocarray(d->v, ncap, sizeof *v)) == NULL)
			return (-1);
		d->v = v;
		d->cap = ncap;
	}
	d->v[d->n++] = *c;
	if (c->info_len > d->info_len_seen)
		d->info_len_seen = c->info_len;
	return (0);
}

/*
 * One inet_diag_msg and its attributes, len bytes at p (any alignment):
 * append it to d when it matches f.  -1 EINVAL, ENOMEM.
 */
static int
inetdiag_msg(struct inetdiag *d, const unsigned char *p, size_t len,
    const struct inetdiag_filter *f)
{
	struct inet_diag_msg	 m;
	struct inetdiag_conn	 c;
	struct nlattr		 a;
	unsigned char		 src[16], dst[16];
	size_t			 off, i;
	unsigned		 lport;

	if (len < sizeof m) {
		d->errstr = "inet_diag_msg cut short";
		errno = EINVAL;
		return (-1);
	}
	memcpy(&m, p, sizeof m);
	if (m.idiag_family != AF_INET && m.idiag_family != AF_INET6)
		return (0);
	lport = ntohs(m.id.idiag_sport);
	for (i = 0; i < f->nports; i++)
		if (f->ports[i] == lport)
			break;
	if (f->nports > 0 && i == f->nports)
		return (0);
	inetdiag_canon(m.idiag_family, m.id.idiag_src, src);
	inetdiag_canon(m.idiag_family, m.id.idiag_dst, dst);
	if (f->peer && memcmp(dst, f->addr, sizeof dst) != 0)
		return (0);

	memset(&c, 0, sizeof c);
	c.family = m.idiag_family;
	inetdiag_text(src, c.local, sizeof c.local);
	c.lport = lport;
	inetdiag_text(dst, c.remote, sizeof c.remote);
	c.rport = ntohs(m.id.idiag_dport);
	c.inode = m.idiag_inode;
	c.uid = m.idiag_uid;
	c.state = m.idiag_state;
	/* The attributes follow, each NLA_ALIGNed; the last may not be. */
	for (off = NLMSG_ALIGN(sizeof m); off < len;
	    off += NLA_ALIGN(a.nla_len)) {
		if (len - off < NLA_HDRLEN) {
			d->errstr = "attribute header cut short";
			errno = EINVAL;
			return (-1);
		}
		memcpy(&a, p + off, sizeof a);
		if (a.nla_len < NLA_HDRLEN || a.nla_len > len - off) {
			d->errstr = "attribute length out of bounds";
			errno = EINVAL;
			return (-1);
		}
		if ((a.nla_type & NLA_TYPE_MASK) == INET_DIAG_INFO)
			inetdiag_info(&c, p + off + NLA_HDRLEN,
			    a.nla_len - NLA_HDRLEN);
	}
	return (inetdiag_add(d, &c));
}

/*
 * Parse a dump's messages, skipping those whose sequence number is not
 * seq (0: any).  See inetdiag_parse().
 */
static int
inetdiag_walk(struct inetdiag *d, const unsigned char *p, size_t len,
    const struct inetdiag_filter *f, uint32_t seq, int *done)
{
	struct nlmsghdr	h;
	size_t		step;
	int		err;

	*done = 0;
	while (len > 0) {
		if (len < sizeof h) {
			d->errstr = "netlink header cut short";
			errno = EINVAL;
			return (-1);
		}
		memcpy(&h, p, sizeof h);
		if (h.nlmsg_len < sizeof h || h.nlmsg_len > len) {
			d->errstr = "netlink message length out of bounds";
			errno = EINVAL;
			return (-1);
		}
		if (seq != 0 && h.nlmsg_seq != seq)
			h.nlmsg_type = NLMSG_NOOP;	/* not our answer */
		switch (h.nlmsg_type) {
		case NLMSG_DONE:
			/* Since 4.x it holds the dump's own error, if any. */
			if (h.nlmsg_len >= NLMSG_LENGTH(sizeof err)) {
				memcpy(&err, p + NLMSG_HDRLEN, sizeof err);
				if (err < 0) {
					d->errstr = "the kernel's dump failed";
					errno = -err;
					return (-1);
				}
			}
			*done = 1;
			return (0);
		case NLMSG_ERROR:
			if (h.nlmsg_len < NLMSG_LENGTH(sizeof err)) {
				d->errstr = "NLMSG_ERROR cut short";
				errno = EINVAL;
				return (-1);
			}
			memcpy(&err, p + NLMSG_HDRLEN, sizeof err);
			if (err == 0)
				break;		/* an acknowledgement */
			d->errstr = "the kernel refused the dump";
			errno = err < 0 ? -err : EINVAL;
			return (-1);
		case SOCK_DIAG_BY_FAMILY:
			if (inetdiag_msg(d, p + NLMSG_HDRLEN,
			    h.nlmsg_len - NLMSG_HDRLEN, f) == -1)
				return (-1);
			break;
		default:
			break;
		}
		if ((step = NLMSG_ALIGN(h.nlmsg_len)) >= len)
			break;
		p += step;
		len -= step;
	}
	return (0);
}

int
inetdiag_parse(struct inetdiag *d, const void *buf, size_t len,
    const unsigned *ports, size_t nports, const char *peer, int *done)
{
	struct inetdiag_filter	f;

	*done = 0;
	d->errstr = NULL;
	if (inetdiag_filter(&f, ports, nports, peer) == -1) {
		d->errstr = "the peer is not an IPv4 or IPv6 address";
		return (-1);
	}
	return (inetdiag_walk(d, buf, len, &f, 0, done));
}

/* Dump the TCP sockets of one family from fd into d. */
static int
inetdiag_dump(struct inetdiag *d, int fd, int family, uint32_t seq,
    const struct inetdiag_filter *f)
{
	struct {
		struct nlmsghdr		nlh;
		struct inet_diag_req_v2	r;
	} req;
	struct sockaddr_nl	 sa;
	struct iovec		 iov;
	struct msghdr		 mh;
	uint32_t		 buf[INETDIAG_BUF / sizeof (uint32_t)];
	ssize_t			 n;
	int			 done = 0;

	memset(&req, 0, sizeof req);
	req.nlh.nlmsg_len = sizeof req;
	req.nlh.nlmsg_type = SOCK_DIAG_BY_FAMILY;
	req.nlh.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	req.nlh.nlmsg_seq = seq;
	req.r.sdiag_family = (uint8_t)family;
	req.r.sdiag_protocol = IPPROTO_TCP;
	/*
	 * Every state in which a full socket still holds the connection's
	 * counters.  A FIN_WAIT2 socket the kernel has turned into a
	 * time-wait one comes too, with no tcp_info and no inode.
	 */
	req.r.idiag_states = 1U << INETDIAG_ESTABLISHED |
	    1U << INETDIAG_FIN_WAIT1 | 1U << INETDIAG_FIN_WAIT2 |
	    1U << INETDIAG_CLOSE_WAIT | 1U << INETDIAG_LAST_ACK |
	    1U << INETDIAG_CLOSING;
	req.r.idiag_ext = 1U << (INET_DIAG_INFO - 1);
	memset(&sa, 0, sizeof sa);
	sa.nl_family = AF_NETLINK;
	while ((n = sendto(fd, &req, sizeof req, 0, (struct sockaddr *)&sa,
	    sizeof sa)) == -1 && errno == EINTR)
		;
	if (n == -1) {
		d->errstr = "cannot send the sock_diag request";
		return (-1);
	}
	while (!done) {
		iov.iov_base = buf;
		iov.iov_len = sizeof buf;
		memset(&mh, 0, sizeof mh);
		mh.msg_name = &sa;
		mh.msg_namelen = sizeof sa;
		mh.msg_iov = &iov;
		mh.msg_iovlen = 1;
		if ((n = recvmsg(fd, &mh, 0)) == -1) {
			if (errno == EINTR)
				continue;
			d->errstr = "cannot receive the sock_diag answer";
			return (-1);
		}
		if (n == 0) {
			d->errstr = "the sock_diag answer ended early";
			errno = EPROTO;
			return (-1);
		}
		if (mh.msg_flags & MSG_TRUNC) {
			d->errstr = "a sock_diag message was truncated";
			errno = EMSGSIZE;
			return (-1);
		}
		if (sa.nl_pid != 0)
			continue;		/* not from the kernel */
		if (inetdiag_walk(d, (const unsigned char *)buf, (size_t)n, f,
		    seq, &done) == -1)
			return (-1);
	}
	return (0);
}

int
inetdiag_read(struct inetdiag *d, const unsigned *ports, size_t nports,
    const char *peer)
{
	struct inetdiag_filter	f;
	int			fd, oerrno, rc = -1;

	d->n = 0;
	d->info_len_seen = 0;
	d->errstr = NULL;
	if (inetdiag_filter(&f, ports, nports, peer) == -1) {
		d->errstr = "the peer is not an IPv4 or IPv6 address";
		return (-1);
	}
	if ((fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC,
	    NETLINK_SOCK_DIAG)) == -1) {
		/* A kernel without CONFIG_INET_DIAG: not available. */
		if (errno == EPROTONOSUPPORT)
			errno = ENOENT;
		d->errstr = "cannot open a sock_diag socket";
		return (-1);
	}
	/*
	 * An IPv4 peer may also be on an IPv6 socket, IPv4-mapped (a
	 * listener on ::), so the AF_INET6 dump is always needed.
	 */
	if (f.v4 && inetdiag_dump(d, fd, AF_INET, 1, &f) == -1)
		goto out;
	if (inetdiag_dump(d, fd, AF_INET6, 2, &f) == -1)
		goto out;
	rc = 0;
out:
	oerrno = errno;
	close(fd);
	errno = oerrno;
	return (rc);
}

void
inetdiag_clear(struct inetdiag *d)
{
	if (d == NULL)
		return;
	free(d->v);
	d->v = NULL;
	d->n = d->cap = 0;
	d->info_len_seen = 0;
}
